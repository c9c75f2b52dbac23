import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCAPartners

/// The hosted sign-in pages of the authorization code flow: the e-mail step, then one form per
/// factor the challenge engine offers (same lockout, deferred verdict, resend and lifetime as
/// the JSON API), then a redirect to the client with a single-use code.
struct HostedSignIn: Sendable {
    let oauth: OAuthService
    let challenges: ChallengeService
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime
    /// Which "New here?" links the e-mail page shows.
    let signUpMode: SignUpMode

    static let base = "/signin"

    /// `GET /oauth2/authorize`.
    func authorize(_ query: [String: String]) async throws -> Response {
        switch try await oauth.authorize(query) {
        case .errorPage(let message, let status):
            return renderer.page(
                "error", title: "Sign-in not possible",
                ["heading": "Sign-in not possible", "message": message], status: status)
        case .redirect(let location):
            return PageRenderer.redirect(to: location)
        case .signIn(let request, let clientName):
            let state = PageState(secret: PageCookies.newSecret(runtime), authorization: request, clientName: clientName)
            return emailPage(state, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
    }

    /// `GET /signin`: the step the visit is at.
    func show(_ request: Request) async throws -> Response {
        guard var state = cookies.state(PageCookies.signIn, in: request), let authorization = state.authorization else {
            return sessionEnded()
        }
        let target = PageRenderer.formTarget(for: authorization.redirectURI)
        guard let challengeID = state.challengeID else {
            let flash = state
            state.error = nil
            return emailPage(flash, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        let challenge = try await challenges.get(challengeID)
        guard challenge.state == .pending else {
            state.challengeID = nil
            state.notice = nil
            state.error = nil
            var flash = state
            flash.error = "Signing in took too long. Please start again."
            return emailPage(flash, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        var values = common(state)
        values["email"] = state.email ?? state.phone
        values["notice"] = state.notice
        values["error"] = state.error
        // A discoverable passkey login is one step: the passkey proves both categories.
        values["progress"] = challenge.methods.map(\.id) == [.passkey]
            ? "One step: your passkey checks it is you." : FactorForms.progress(challenge)
        // Sign up or in: the challenge itself offers only the code at first
        // (`ChallengeRecord.offeredMethods`), so a new, a known and a refused address see the same page.
        values["methods"] = FactorForms.methods(challenge, base: Self.base, state: state)
        values["passkey"] = FactorForms.passkey(challenge, base: Self.base, state: state, label: "Sign in with a passkey")
        values["cancelAction"] = "\(Self.base)/cancel"
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/cancel")
        values["cancelLabel"] = "Cancel and return to \(state.clientName ?? "the application")"
        state.notice = nil
        state.error = nil
        return renderer.page(
            "factors", title: "Confirm it is you", values, formTarget: target,
            cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/email`.
    func email(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/email"), let authorization = state.authorization
        else { return sessionEnded() }
        let address = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        state.email = address
        // A plain sign-in now, whatever "New here?" started before.
        state.enrolmentToken = nil
        state.phone = nil
        do {
            let challenge = try await challenges.create(
                CreateChallengeRequest(operation: .login, user: UserReference(email: address)),
                delegation: authorization.delegation(clientName: state.clientName ?? ""))
            state.challengeID = challenge.challengeId
            state.error = nil
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited
                ? FactorForms.message(for: problem) : "Please enter a valid e-mail address."
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/passkey`: a discoverable passkey login instead of the e-mail:
    /// the next page asks the browser for a passkey, whose user handle names the user.
    func passkey(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/passkey"), let authorization = state.authorization
        else { return sessionEnded() }
        state.email = nil
        do {
            let challenge = try await challenges.create(
                CreateChallengeRequest(operation: .login, user: UserReference(), methodHint: .passkey),
                delegation: authorization.delegation(clientName: state.clientName ?? ""))
            state.challengeID = challenge.challengeId
            state.error = nil
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited ? FactorForms.message(for: problem) : "Passkeys cannot be used here."
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/send`: sends (or resends) an SMS or e-mail code.
    func send(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/send"), let challengeID = state.challengeID else {
            return sessionEnded()
        }
        try await FactorForms.sendCode(form, challengeID: challengeID, with: challenges, into: &state)
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/proof`: one factor; the last one ends at the client with a code.
    func proof(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/proof"),
            let challengeID = state.challengeID, let authorization = state.authorization
        else { return sessionEnded() }
        let target = PageRenderer.formTarget(for: authorization.redirectURI)
        guard let proof = FactorForms.proof(in: form) else {
            state.error = FactorForms.emptyFieldMessage
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        do {
            let response = try await challenges.submit(proof, to: challengeID)
            // A new address proved its code: its enrolment token sets a password
            // next, and is never granted to the client.
            if response.status == .enrolment, let token = response.accessToken {
                return try HostedSignUp.toEnrolment(state, token: token, cookies: cookies)
            }
            if let tokens = response.tokens {
                let location = try await oauth.grant(authorization, tokens: tokens)
                return PageRenderer.redirect(to: location, formTarget: target, cookie: cookies.clear(PageCookies.signIn))
            }
            state.notice = "Thank you. One more step."
        } catch let problem as Problem where problem.status < 500 {
            switch problem.code {
            case .userLocked:
                let location = oauth.errorRedirect(
                    authorization.redirectURI, error: "access_denied", description: "the user could not be authenticated",
                    state: authorization.state)
                return renderer.page(
                    "error", title: "Access blocked",
                    [
                        "heading": "Access blocked",
                        "message": "Too many attempts failed, so your access is blocked for now. Please try again later or contact your bank.",
                        "returnURL": location, "clientName": state.clientName ?? "the application",
                    ],
                    status: .forbidden, formTarget: target, cookie: cookies.clear(PageCookies.signIn))
            case .challengeExpired, .challengeCompleted, .challengeCancelled, .challengeFailed:
                state.challengeID = nil
                state.error = "Signing in took too long. Please start again."
            default:
                state.error = FactorForms.message(for: problem)
            }
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/cancel`: back to the client with `access_denied`.
    func cancel(_ request: Request, form: [String: String]) async throws -> Response {
        guard let state = try verified(request, form: form, action: "\(Self.base)/cancel"), let authorization = state.authorization else {
            return sessionEnded()
        }
        if let challengeID = state.challengeID { _ = try? await challenges.cancel(challengeID) }
        let location = oauth.errorRedirect(
            authorization.redirectURI, error: "access_denied", description: "the user cancelled the sign-in",
            state: authorization.state)
        return PageRenderer.redirect(
            to: location, formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
            cookie: cookies.clear(PageCookies.signIn))
    }

    /// The visit's state, when the cookie opens and the form's CSRF token is this form's.
    func verified(_ request: Request, form: [String: String], action: String) throws -> PageState? {
        guard let state = cookies.state(PageCookies.signIn, in: request),
            PageCookies.checkCSRF(state, action: action, presented: form["csrf"])
        else { return nil }
        return state
    }

    func common(_ state: PageState) -> [String: Any] {
        ["clientName": state.clientName ?? "An application"]
    }

    private func emailPage(_ state: PageState, cookie: String) -> Response {
        var values = common(state)
        values["csrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/email")
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/cancel")
        if challenges.offersPasskeyLogin {
            values["passkeyCsrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/passkey")
        }
        values["email"] = state.email ?? ""
        values["error"] = state.error
        // Sign up or in: "New here?" only when sign-up is on.
        values.merge(HostedSignUp.links(for: signUpMode)) { $1 }
        return renderer.page(
            "email", title: "Sign in", values,
            formTarget: state.authorization.flatMap { PageRenderer.formTarget(for: $0.redirectURI) }, cookie: cookie)
    }

    /// `403`: the request is well formed, but the browser holds no live visit (cookie) or
    /// the form's CSRF token is not that visit's, so the server refuses it.
    func sessionEnded() -> Response {
        renderer.page(
            "error", title: "Sign-in ended",
            [
                "heading": "This sign-in has ended",
                "message": "Your sign-in session is no longer valid. Please go back to the application and start again.",
            ],
            status: .forbidden)
    }
}
