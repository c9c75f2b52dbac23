import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization
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
    func authorize(_ request: Request, query: [String: String]) async throws -> Response {
        switch try await oauth.authorize(query) {
        case .errorPage(let messageKey, let status):
            let words = renderer.words(for: request, uiLocales: query["ui_locales"], here: request.uri.description)
            return renderer.errorPage(heading: "signin.notPossible.title", message: PageText(messageKey), words: words, status: status)
        case .redirect(let location):
            return PageRenderer.redirect(to: location)
        case .signIn(let authorization, let clientName):
            let state = PageState(secret: PageCookies.newSecret(runtime), authorization: authorization, clientName: clientName)
            return emailPage(state, words: words(request, state), cookie: try cookies.cookie(PageCookies.signIn, state))
        }
    }

    /// The words of a sign-in page: the visit's `ui_locales` count, the account's language
    /// never (see ``PageRenderer/words(for:uiLocales:stored:here:)``), and the switch comes
    /// back to `GET /signin`, which shows the step the visit is at.
    func words(_ request: Request, _ state: PageState?, here: String = base) -> PageWords {
        renderer.words(for: request, uiLocales: state?.authorization?.uiLocales, here: here)
    }

    /// `GET /signin`: the step the visit is at.
    func show(_ request: Request) async throws -> Response {
        guard var state = cookies.state(PageCookies.signIn, in: request), let authorization = state.authorization else {
            return sessionEnded(request)
        }
        let words = words(request, state)
        let target = PageRenderer.formTarget(for: authorization.redirectURI)
        guard let challengeID = state.challengeID else {
            let flash = state
            state.error = nil
            return emailPage(flash, words: words, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        let challenge = try await challenges.get(challengeID)
        guard challenge.state == .pending else {
            state.challengeID = nil
            state.notice = nil
            state.error = nil
            var flash = state
            flash.error = PageText("signin.error.tooLong")
            return emailPage(flash, words: words, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        var values = common(state, words: words)
        if let account = state.email ?? state.phone {
            values["signingInAs"] = words.html("signin.factors.signingInAs", ["account": account], strong: ["account"])
        }
        values["notice"] = state.notice.map(words.text)
        values["error"] = state.error.map(words.text)
        // A discoverable passkey login is one step: the passkey proves both categories.
        values["progress"] = challenge.methods.map(\.id) == [.passkey]
            ? words.text("signin.passkey.oneStep") : FactorForms.progress(challenge, words: words)
        // Sign up or in: the challenge itself offers only the code at first
        // (`ChallengeRecord.offeredMethods`), so a new, a known and a refused address see the same page.
        values["methods"] = FactorForms.methods(challenge, base: Self.base, state: state, words: words)
        values["passkey"] = FactorForms.passkey(
            challenge, base: Self.base, state: state, label: words.text("signin.passkey.button"))
        values["cancelAction"] = "\(Self.base)/cancel"
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/cancel")
        state.notice = nil
        state.error = nil
        return renderer.page(
            "factors", title: words.text("signin.factors.title"), values, words: words, formTarget: target,
            cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/email`.
    func email(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/email"), let authorization = state.authorization
        else { return sessionEnded(request) }
        let address = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        state.email = address
        // A plain sign-in now, whatever "New here?" started before.
        state.enrolmentToken = nil
        state.phone = nil
        do {
            // What the request asks is what the user proves: a sign-in, or the payment of its
            // authorization_details, bound into every proof as a consent's payment is.
            let challenge = try await challenges.create(
                CreateChallengeRequest(
                    operation: authorization.operation, user: UserReference(email: address),
                    transaction: authorization.authorizationDetail?.transaction),
                delegation: authorization.delegation(clientName: state.clientName ?? ""))
            state.challengeID = challenge.challengeId
            state.error = nil
        } catch let problem as Problem where problem.status < 500 {
            switch problem.code {
            case .rateLimited: state.error = FactorForms.message(for: problem)
            // A payment above the high-value bar needs three categories, more than the page's
            // forms can collect for this user.
            case .categoriesUnavailable: state.error = PageText("signin.error.categoriesUnavailable")
            // After a weak password reset no partner gets in until the bank lifts the hold.
            case .userRestricted: state.error = PageText("problem.user.restricted.detail")
            default: state.error = PageText("signin.error.invalidEmail")
            }
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/passkey`: a discoverable passkey login instead of the e-mail:
    /// the next page asks the browser for a passkey, whose user handle names the user.
    func passkey(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/passkey"), let authorization = state.authorization
        else { return sessionEnded(request) }
        state.email = nil
        // A passkey without an e-mail is a sign-in only: a payment or account access names its
        // user first, so its challenge can be that operation's.
        guard authorization.authorizationDetail == nil else {
            state.error = PageText("signin.error.passkeyUnavailable")
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        do {
            let challenge = try await challenges.create(
                CreateChallengeRequest(operation: .login, user: UserReference(), methodHint: .passkey),
                delegation: authorization.delegation(clientName: state.clientName ?? ""))
            state.challengeID = challenge.challengeId
            state.error = nil
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited
                ? FactorForms.message(for: problem) : PageText("signin.error.passkeyUnavailable")
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/send`: sends (or resends) an SMS or e-mail code.
    func send(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/send"), let challengeID = state.challengeID else {
            return sessionEnded(request)
        }
        try await FactorForms.sendCode(form, challengeID: challengeID, with: challenges, into: &state)
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/proof`: one factor; the last one ends at the client with a code.
    func proof(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = try verified(request, form: form, action: "\(Self.base)/proof"),
            let challengeID = state.challengeID, let authorization = state.authorization
        else { return sessionEnded(request) }
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
            state.notice = PageText("factor.oneMoreStep")
        } catch let problem as Problem where problem.status < 500 {
            if FactorForms.refusedProof(problem, into: &state) {
                let location = try oauth.errorRedirect(
                    for: authorization, error: "access_denied", description: "the user could not be authenticated")
                let words = words(request, state)
                let title = words.text("signin.blocked.title")
                return renderer.page(
                    "error", title: title,
                    [
                        "heading": title, "message": words.text("signin.blocked.message"),
                        "returnURL": location, "returnLabel": Self.returnLabel(state.clientName, words: words),
                    ],
                    words: words, status: .forbidden, formTarget: target, cookie: cookies.clear(PageCookies.signIn))
            }
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/cancel`: back to the client with `access_denied`.
    func cancel(_ request: Request, form: [String: String]) async throws -> Response {
        guard let state = try verified(request, form: form, action: "\(Self.base)/cancel"), let authorization = state.authorization else {
            return sessionEnded(request)
        }
        if let challengeID = state.challengeID { _ = try? await challenges.cancel(challengeID) }
        let location = try oauth.errorRedirect(
            for: authorization, error: "access_denied", description: "the user cancelled the sign-in")
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

    /// What every sign-in page says of the partner: the lead ("ACME Pay asks you to sign in.")
    /// and the way back to it; for a request with `authorization_details`, what it asks the
    /// user to approve, as the consent page shows it.
    func common(_ state: PageState, words: PageWords) -> [String: Any] {
        let detail = state.authorization?.authorizationDetail
        let key = detail == nil ? "signin.lead" : "consent.lead"
        let lead = state.clientName.map { words.html(key, ["partner": $0], strong: ["partner"]) }
        var values: [String: Any] = [
            "lead": lead ?? PageWords.escape(words.text("signin.lead.unnamed")),
            "cancelLabel": state.clientName.map { words.text("page.cancelAndReturn", ["partner": $0]) }
                ?? words.text("page.cancelAndReturn.unnamed"),
        ]
        if let detail { values.merge(ApprovalDetails.of(detail, words: words)) { $1 } }
        return values
    }

    /// "Return to ACME Pay", or to the application when its name is not known.
    static func returnLabel(_ clientName: String?, words: PageWords) -> String {
        clientName.map { words.text("page.returnTo", ["partner": $0]) } ?? words.text("page.returnTo.unnamed")
    }

    private func emailPage(_ state: PageState, words: PageWords, cookie: String) -> Response {
        var values = common(state, words: words)
        values["base"] = Self.base
        values["csrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/email")
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/cancel")
        // A payment or an account access is approved by someone who has an account, named
        // by their e-mail: no passkey-first sign-in, no sign-up.
        let plainSignIn = state.authorization?.authorizationDetail == nil
        if challenges.offersPasskeyLogin, plainSignIn {
            values["passkeyCsrf"] = PageCookies.csrfToken(state, action: "\(Self.base)/passkey")
        }
        values["email"] = state.email ?? ""
        values["error"] = state.error.map(words.text)
        // Sign up or in: "New here?" only when sign-up is on.
        if plainSignIn { values.merge(HostedSignUp.links(for: signUpMode)) { $1 } }
        return renderer.page(
            "email", title: words.text("signin.title"), values, words: words,
            formTarget: state.authorization.flatMap { PageRenderer.formTarget(for: $0.redirectURI) }, cookie: cookie)
    }

    /// `403`: the request is well formed, but the browser holds no live visit (cookie) or
    /// the form's CSRF token is not that visit's, so the server refuses it.
    func sessionEnded(_ request: Request) -> Response {
        let words = words(request, nil)
        return renderer.page(
            "error", title: words.text("signin.ended.title"),
            ["heading": words.text("signin.ended.heading"), "message": words.text("signin.ended.message")],
            words: words, status: .forbidden)
    }
}
