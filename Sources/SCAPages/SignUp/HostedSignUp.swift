import Foundation
import Hummingbird
import SCACore
import SCAEngine

/// "New here? Continue with your e-mail" (or "with your phone number") on the hosted sign-in
/// page: the pages' way through `POST /v1/signup-or-in` and `POST /v1/me/enrolment`,
/// within the partner's authorization request.
///
/// E-mail (or number), then a code page that asks for the e-mail (or SMS) code whoever the
/// address belongs to (a known user, a new address, an address sign-up does not allow: the
/// same answers, sent or not; the challenge itself offers only that code at first). A known
/// user's code is the possession element of a normal sign-in, and the page then asks for the
/// second category as usual. A new user's code answers with an enrolment token, kept in the
/// sealed page cookie, for the password page; the password set, the visit goes on as a full
/// SCA of that user (the password just chosen, and a fresh code of the same kind) and ends at
/// the client with a code like any hosted sign-in. Each way answers only when `signUp` allows
/// it (`email`, `phone`, `email,phone`).
struct HostedSignUp: Sendable {
    let signIn: HostedSignIn
    let signUp: SignUpService

    static let base = "/signin/signup"
    static let phonePath = "/signin/signup/phone"
    static let passwordPath = "/signin/password"

    private var renderer: PageRenderer { signIn.renderer }
    private var cookies: PageCookies { signIn.cookies }
    private var challenges: ChallengeService { signIn.challenges }
    private var mode: SignUpMode { signIn.signUpMode }
    private var isOn: Bool { mode.allowsEmail || mode.allowsPhone }

    /// The values of the sign-in page's "New here?" links: one per way sign-up allows.
    static func links(for mode: SignUpMode) -> [String: String] {
        var values: [String: String] = [:]
        if mode.allowsEmail { values["signUpEmailLink"] = base }
        if mode.allowsPhone { values["signUpPhoneLink"] = phonePath }
        if mode.allowsEmail || mode.allowsPhone { values["signUpLink"] = "on" }
        if mode.allowsEmail && mode.allowsPhone { values["signUpBoth"] = "on" }
        return values
    }

    /// `GET /signin/signup`: the e-mail of a new account.
    func show(_ request: Request) throws -> Response {
        try form(request, byPhone: false)
    }

    /// `GET /signin/signup/phone`: the phone number of a new account.
    func showPhone(_ request: Request) throws -> Response {
        try form(request, byPhone: true)
    }

    private func form(_ request: Request, byPhone: Bool) throws -> Response {
        guard byPhone ? mode.allowsPhone : mode.allowsEmail else { return notOffered(request) }
        guard var state = cookies.state(PageCookies.signIn, in: request), let authorization = state.authorization else {
            return signIn.sessionEnded(request)
        }
        // A payment or an account access is approved by an existing account, never a new one.
        guard authorization.authorizationDetail == nil else { return notOffered(request) }
        let words = signIn.words(request, state, here: byPhone ? Self.phonePath : Self.base)
        var values = signIn.common(state, words: words)
        values["csrf"] = PageCookies.csrfToken(state, action: byPhone ? Self.phonePath : Self.base)
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(HostedSignIn.base)/cancel")
        if byPhone { values["phone"] = state.phone ?? "" } else { values["email"] = state.email ?? "" }
        values["error"] = state.error.map(words.text)
        values["signInLink"] = HostedSignIn.base
        state.error = nil
        return renderer.page(
            byPhone ? "signup-phone" : "signup-email", title: words.text("signup.title"), values, words: words,
            formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
            cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/signup`: opens the sign-up-or-in challenge and sends its e-mail code.
    func start(_ request: Request, form: [String: String]) async throws -> Response {
        try await start(request, form: form, byPhone: false)
    }

    /// `POST /signin/signup/phone`: opens the sign-up-or-in challenge of a number and sends its SMS code.
    func startPhone(_ request: Request, form: [String: String]) async throws -> Response {
        try await start(request, form: form, byPhone: true)
    }

    private func start(_ request: Request, form: [String: String], byPhone: Bool) async throws -> Response {
        guard byPhone ? mode.allowsPhone : mode.allowsEmail else { return notOffered(request) }
        let path = byPhone ? Self.phonePath : Self.base
        guard var state = try signIn.verified(request, form: form, action: path) else { return signIn.sessionEnded(request) }
        guard state.authorization?.authorizationDetail == nil else { return notOffered(request) }
        let typed = (form[byPhone ? "phone" : "email"] ?? "").trimmingCharacters(in: .whitespaces)
        state.email = byPhone ? nil : typed
        state.phone = byPhone ? typed : nil
        state.enrolmentToken = nil
        do {
            // A new account starts in the language its page was read in.
            let challenge = try await signUp.start(
                byPhone ? SignUpOrInRequest(phone: typed) : SignUpOrInRequest(email: typed),
                delegation: state.authorization?.delegation(clientName: state.clientName ?? ""),
                language: signIn.words(request, state).language)
            state.challengeID = challenge.challengeId
            state.error = nil
            // Every sign-up-or-in challenge offers the typed address's code (a decoy's is never sent).
            let code: AuthenticationMethod = byPhone ? .smsOTP : .emailOTP
            try await FactorForms.sendCode(["method": code.rawValue], challengeID: challenge.challengeId, with: challenges, into: &state)
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited
                ? FactorForms.message(for: problem)
                : byPhone ? PageText("signup.error.invalidPhone") : PageText("signin.error.invalidEmail")
            return PageRenderer.redirect(to: path, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `GET /signin/password`: a new user chooses their password.
    func showPassword(_ request: Request) throws -> Response {
        guard isOn else { return notOffered(request) }
        guard var state = cookies.state(PageCookies.signIn, in: request), let authorization = state.authorization else {
            return signIn.sessionEnded(request)
        }
        guard state.enrolmentToken != nil else {
            return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        let words = signIn.words(request, state, here: Self.passwordPath)
        var values = signIn.common(state, words: words)
        values["csrf"] = PageCookies.csrfToken(state, action: Self.passwordPath)
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(HostedSignIn.base)/cancel")
        if let account = state.phone ?? state.email {
            values["forAccount"] = words.html("signup.password.forAccount", ["account": account], strong: ["account"])
        }
        values["passwordLabel"] = words.text("signup.password.label", count: InputRules.passwordLength.lowerBound)
        values["notice"] = state.notice.map(words.text)
        values["error"] = state.error.map(words.text)
        state.notice = nil
        state.error = nil
        return renderer.page(
            "signup-password", title: words.text("signup.password.title"), values, words: words,
            formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
            cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    /// `POST /signin/password`: the enrolment (as `POST /v1/me/enrolment` with a password),
    /// then a login challenge for the new user with that password proven and a code sent
    /// (e-mail, or SMS for a phone sign-up): the page asks for the code, and the code ends at
    /// the client.
    func setPassword(_ request: Request, form: [String: String]) async throws -> Response {
        guard isOn else { return notOffered(request) }
        guard var state = try signIn.verified(request, form: form, action: Self.passwordPath),
            let token = state.enrolmentToken, let authorization = state.authorization
        else { return signIn.sessionEnded(request) }
        let password = form["password"] ?? ""
        guard password == form["confirm"] ?? "" else {
            state.error = PageText("signup.error.passwordsDiffer")
            return PageRenderer.redirect(to: Self.passwordPath, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        let enrolled: EnrolmentResponse
        do {
            enrolled = try await signUp.enrol(EnrolmentRequest(password: password), authorization: "Bearer \(token)")
        } catch let problem as Problem where problem.status < 500 {
            switch problem.code {
            case .requestInvalid:
                // The one rule a password is refused by here is its length.
                let length = InputRules.passwordLength
                state.error = length.contains(password.count)
                    ? PageText("signup.error.passwordRejected")
                    : PageText(
                        "signup.error.passwordLength",
                        ["minimum": String(length.lowerBound), "maximum": String(length.upperBound)])
                return PageRenderer.redirect(to: Self.passwordPath, cookie: try cookies.cookie(PageCookies.signIn, state))
            case .enrolmentComplete:
                state.enrolmentToken = nil
                state.challengeID = nil
                state.error = PageText("signup.error.alreadySetUp")
            default:
                // An expired (ten minutes) or used token: the sign-up resumes with a new code.
                state.enrolmentToken = nil
                state.challengeID = nil
                state.error = PageText("signup.error.tooLong")
                return PageRenderer.redirect(
                    to: state.phone != nil ? Self.phonePath : Self.base, cookie: try cookies.cookie(PageCookies.signIn, state))
            }
            return PageRenderer.redirect(to: HostedSignIn.base, cookie: try cookies.cookie(PageCookies.signIn, state))
        }
        state.enrolmentToken = nil
        state.challengeID = nil
        do {
            // The new user by id: a phone sign-up's user has no e-mail to name them by.
            let challenge = try await challenges.create(
                CreateChallengeRequest(operation: .login, user: UserReference(userId: enrolled.userId)),
                delegation: authorization.delegation(clientName: state.clientName ?? ""))
            state.challengeID = challenge.challengeId
            let proven = try await challenges.submit(ProofRequest(method: .password, credential: password), to: challenge.challengeId)
            if let tokens = proven.tokens {
                // A policy of one category: the password was it.
                let location = try await signIn.oauth.grant(authorization, tokens: tokens)
                return PageRenderer.redirect(
                    to: location, formTarget: PageRenderer.formTarget(for: authorization.redirectURI),
                    cookie: cookies.clear(PageCookies.signIn))
            }
            let code: AuthenticationMethod = state.phone != nil ? .smsOTP : .emailOTP
            if challenge.methods.contains(where: { $0.id == code }) {
                try await FactorForms.sendCode(["method": code.rawValue], challengeID: challenge.challengeId, with: challenges, into: &state)
            }
            state.notice = PageText("signup.passwordSet", then: [state.notice ?? PageText("signup.oneMoreStep")])
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
        state.notice = PageText(state.phone != nil ? "signup.confirmed.phone" : "signup.confirmed.email")
        state.error = nil
        return PageRenderer.redirect(to: passwordPath, cookie: try cookies.cookie(PageCookies.signIn, state))
    }

    private func notOffered(_ request: Request) -> Response {
        renderer.errorPage(
            heading: "signup.unavailable.title", message: PageText("signup.unavailable.message"),
            words: signIn.words(request, nil, here: HostedSignIn.base), status: .notFound)
    }
}
