import Foundation
import Hummingbird
import SCACore

/// "New here? Continue with your e-mail" on the hosted sign-in (issue 17): the pages' way
/// through `POST /v1/signup-or-in` and `POST /v1/me/enrolment`, within the partner's
/// authorization request.
///
/// E-mail, then a code page that asks for the e-mail code whoever the address belongs to (a
/// known user, a new address, an address sign-up does not allow: the same answers, sent or
/// not). A known user's code is the possession element of a normal sign-in, and the page then
/// asks for the second category as usual. A new user's code answers with an enrolment token,
/// kept in the sealed page cookie, for the password page; the password set, the visit goes on
/// as a full SCA of that user (the password just chosen, and a fresh e-mail code) and ends at
/// the client with a code like any hosted sign-in. Unless `signUp` allows e-mail (`email`,
/// `email,phone`) nothing here answers: these pages sign up by e-mail only.
struct HostedSignUp: Sendable {
    let signIn: HostedSignIn
    let signUp: SignUpService

    static let base = "/signin/signup"
    static let passwordPath = "/signin/password"

    private var renderer: PageRenderer { signIn.renderer }
    private var cookies: PageCookies { signIn.cookies }
    private var challenges: ChallengeService { signIn.challenges }
    private var isOn: Bool { signUp.configuration.signUp.mode.allowsEmail }

    /// `GET /signin/signup`: the e-mail of a new account.
    func show(_ request: Request) throws -> Response {
        guard isOn else { return notOffered() }
        guard var state = cookies.state(PageCookies.signIn, in: request), let authorization = state.authorization else {
            return signIn.sessionEnded()
        }
        var values = signIn.common(state)
        values["csrf"] = PageCookies.csrfToken(state, action: Self.base)
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(HostedSignIn.base)/cancel")
        values["email"] = state.email ?? ""
        values["error"] = state.error
        values["signInLink"] = HostedSignIn.base
        state.error = nil
        return renderer.page(
            "signup-email", title: "Create your account", values,
            formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
            cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/signup`: opens the sign-up-or-in challenge and sends its e-mail code.
    func start(_ request: Request, form: [String: String]) async throws -> Response {
        guard isOn else { return notOffered() }
        guard var state = try signIn.verified(request, form: form, action: Self.base) else { return signIn.sessionEnded() }
        let address = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        state.email = address
        state.enrolmentToken = nil
        do {
            let challenge = try await signUp.start(SignUpOrInRequest(email: address))
            state.challengeID = challenge.challengeId
            state.signUp = true
            state.error = nil
            // Every sign-up-or-in challenge offers the e-mail code (a decoy's is never sent).
            try await FactorForms.sendCode(
                ["method": AuthenticationMethod.emailOTP.rawValue], challengeID: challenge.challengeId, with: challenges,
                into: &state)
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited
                ? FactorForms.message(for: problem) : "Please enter a valid e-mail address."
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `GET /signin/password`: a new user chooses their password.
    func showPassword(_ request: Request) throws -> Response {
        guard isOn else { return notOffered() }
        guard var state = cookies.state(PageCookies.signIn, in: request), let authorization = state.authorization else {
            return signIn.sessionEnded()
        }
        guard state.enrolmentToken != nil else {
            return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        var values = signIn.common(state)
        values["csrf"] = PageCookies.csrfToken(state, action: Self.passwordPath)
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(HostedSignIn.base)/cancel")
        values["email"] = state.email
        values["notice"] = state.notice
        values["error"] = state.error
        state.notice = nil
        state.error = nil
        return renderer.page(
            "signup-password", title: "Choose your password", values,
            formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
            cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/password`: the enrolment (as `POST /v1/me/enrolment` with a password),
    /// then a login challenge for the new user with that password proven and an e-mail code
    /// sent: the page asks for the code, and the code ends at the client.
    func setPassword(_ request: Request, form: [String: String]) async throws -> Response {
        guard isOn else { return notOffered() }
        guard var state = try signIn.verified(request, form: form, action: Self.passwordPath),
            let token = state.enrolmentToken, let authorization = state.authorization
        else { return signIn.sessionEnded() }
        let password = form["password"] ?? ""
        guard password == form["confirm"] ?? "" else {
            state.error = "The two passwords are not the same. Please type them again."
            return PageRenderer.redirect(to: Self.passwordPath, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        do {
            _ = try await signUp.enrol(EnrolmentRequest(password: password), authorization: "Bearer \(token)")
        } catch let problem as Problem where problem.status < 500 {
            switch problem.code {
            case .requestInvalid:
                // The password rules, in the service's own words ("password must have 8 to …").
                state.error = "This password cannot be used: \(problem.detail ?? "please choose another one")."
                return PageRenderer.redirect(to: Self.passwordPath, cookie: try cookies.cookie(PageCookies.signIn, state))
            case .enrolmentComplete:
                state.enrolmentToken = nil
                state.signUp = nil
                state.challengeID = nil
                state.error = "Your account is set up already. Please sign in."
            default:
                // An expired (ten minutes) or used token: the sign-up resumes with a new code.
                state.enrolmentToken = nil
                state.challengeID = nil
                state.error = "Signing up took too long. Please start again."
                return PageRenderer.redirect(to: Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
            }
            return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        state.enrolmentToken = nil
        state.signUp = nil
        state.challengeID = nil
        do {
            let challenge = try await challenges.create(
                CreateChallengeRequest(operation: .login, user: UserReference(email: state.email ?? "")))
            state.challengeID = challenge.challengeId
            let proven = try await challenges.submit(ProofRequest(method: .password, credential: password), to: challenge.challengeId)
            if let tokens = proven.tokens {
                // A policy of one category: the password was it.
                let location = try await signIn.oauth.grant(authorization, tokens: tokens)
                return PageRenderer.redirect(
                    to: location, formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
                    cookie: cookies.clear(PageCookies.signIn))
            }
            if challenge.methods.contains(where: { $0.id == .emailOTP }) {
                try await FactorForms.sendCode(
                    ["method": AuthenticationMethod.emailOTP.rawValue], challengeID: challenge.challengeId, with: challenges,
                    into: &state)
            }
            state.notice = "Your password is set. " + (state.notice ?? "One more step to sign in.")
        } catch let problem as Problem where problem.status < 500 {
            // The page shows what is left to prove (or the e-mail step when the challenge could not open).
            state.error = FactorForms.message(for: problem)
        }
        return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// After a new address proved its code: the token kept for the password page.
    static func toEnrolment(_ state: PageState, token: String, cookies: PageCookies) throws -> Response {
        var state = state
        state.enrolmentToken = token
        state.challengeID = nil
        state.notice = "Your e-mail address is confirmed. Now choose a password for your account."
        state.error = nil
        return PageRenderer.redirect(to: passwordPath, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    private func notOffered() -> Response {
        renderer.page(
            "error", title: "Not available",
            ["heading": "Not available", "message": "New accounts cannot be created here. Please go back to the application."],
            status: .notFound)
    }
}
