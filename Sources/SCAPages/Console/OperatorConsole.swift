import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization

/// The operator console's pages, over ``ConsoleService`` alone: the sign-in (the hosted
/// sign-in's factor forms, on a first-party login challenge), and, once signed in, the users,
/// one user's page and its actions. One sealed cookie (``PageCookies/consoleCookie(_:)``)
/// carries the visit: the sign-in's progress, then the operator's session.
struct OperatorConsole: Sendable {
    let console: ConsoleService
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime

    static let base = "/console"
    static let signIn = "/console/signin"
    static let usersPage = "/console/users"

    /// The console's frame: wider, and its own name and footer, so no operator page passes for
    /// a customer's.
    func frame(_ words: PageWords) -> PageFrame {
        PageFrame(brand: words.text("console.brand"), footer: words.text("console.footer"), bodyClass: "console")
    }

    func words(_ request: Request, here: String = base) -> PageWords {
        renderer.words(for: request, here: here)
    }

    // MARK: Sign-in

    /// `GET /console`: the sign-in step the visit is at (the e-mail, then the factors), or the
    /// users once signed in.
    func home(_ request: Request) async throws -> Response {
        var state = cookies.state(PageCookies.console, in: request) ?? PageState(secret: PageCookies.newSecret(runtime))
        let words = words(request)
        let flash = state
        state.notice = nil
        state.error = nil
        if let challengeID = state.challengeID {
            if let challenge = try? await console.signIn.challenge(challengeID), challenge.state == .pending {
                return factorsPage(challenge, flash, words: words, cookie: try cookies.consoleCookie(state))
            }
            state.challengeID = nil
            if state.console == nil {
                var expired = state
                expired.error = PageText("signin.error.tooLong")
                return emailPage(expired, words: words, cookie: try cookies.consoleCookie(state))
            }
        }
        if state.console != nil {
            return PageRenderer.redirect(to: state.returnTo ?? Self.usersPage, cookie: try cookies.consoleCookie(state))
        }
        return emailPage(flash, words: words, cookie: try cookies.consoleCookie(state))
    }

    /// `POST /console/signin/email`.
    func email(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/email"), state.console == nil else {
            return restart()
        }
        let address = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        try await FactorForms.startSignIn(email: address, into: &state) { try await console.signIn.start(email: address) }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
    }

    /// `POST /console/signin/passkey`: a discoverable passkey instead of the e-mail.
    func passkey(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/passkey"), state.console == nil else {
            return restart()
        }
        try await FactorForms.startSignIn(email: nil, into: &state) { try await console.signIn.startWithPasskey() }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
    }

    /// `POST /console/signin/send`: sends (or resends) an SMS or e-mail code.
    func send(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/send"), let challengeID = state.challengeID else {
            return restart()
        }
        try await FactorForms.sendCode(form, into: &state) { try await console.signIn.sendCode($0, for: challengeID) }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
    }

    /// `POST /console/signin/proof`: one factor; the last one opens the operator's session, or
    /// renews it for a step-up.
    func proof(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/proof"), let challengeID = state.challengeID else {
            return restart()
        }
        guard let proof = FactorForms.proof(in: form) else {
            state.error = FactorForms.emptyFieldMessage
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
        }
        do {
            let response = try await console.signIn.submit(proof, to: challengeID)
            guard let tokens = response.tokens else {
                state.notice = PageText("factor.oneMoreStep")
                return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
            }
            state.challengeID = nil
            if let current = state.console {
                state.console = try await console.stepUp(current, with: tokens)
                state.notice = PageText("console.stepUp.done")
            } else {
                state.console = try await console.open(tokens)
                // A new key for the signed-in visit's forms: none made before the sign-in counts.
                state.secret = PageCookies.newSecret(runtime)
            }
            let next = state.returnTo ?? Self.usersPage
            state.returnTo = nil
            state.email = nil
            return PageRenderer.redirect(to: next, cookie: try cookies.consoleCookie(state))
        } catch let problem as Problem where problem.status == 403 && problem.code == .forbidden {
            // Signed in, but not an operator (or not strongly): no console, and no cookie left.
            return refused(request)
        } catch let problem as Problem where problem.status < 500 {
            if FactorForms.refusedProof(problem, into: &state) {
                return message(
                    "signin.blocked.title", PageText("signin.blocked.message"), words: words(request), status: .forbidden,
                    cookie: cookies.clearConsole())
            }
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
    }

    /// `POST /console/signin/cancel`: back to the e-mail, or, from a step-up, to the page that
    /// asked for it, the action not done.
    func cancel(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/cancel") else { return restart() }
        if let challengeID = state.challengeID { try? await console.signIn.cancel(challengeID) }
        state.challengeID = nil
        state.error = nil
        state.notice = nil
        guard state.console != nil else {
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(PageState(secret: state.secret)))
        }
        let back = state.returnTo ?? Self.usersPage
        state.returnTo = nil
        return PageRenderer.redirect(to: back, cookie: try cookies.consoleCookie(state))
    }

    /// `POST /console/signout`: the session ends on every instance, and the cookie goes.
    func signOut(_ request: Request, form: [String: String]) async throws -> Response {
        guard let state = verified(request, form: form, action: "/console/signout"), let session = state.console else {
            return restart()
        }
        try await console.close(session)
        return message(
            "console.signedOut.title", PageText("console.signedOut.message"), words: words(request), status: .ok,
            cookie: cookies.clearConsole())
    }

    // MARK: Pages

    private func emailPage(_ state: PageState, words: PageWords, cookie: String) -> Response {
        let values: [String: Any?] = [
            "csrf": PageCookies.csrfToken(state, action: "\(Self.signIn)/email"),
            "passkeyCsrf": PageCookies.csrfToken(state, action: "\(Self.signIn)/passkey"),
            "email": state.email, "notice": state.notice.map(words.text), "error": state.error.map(words.text),
            "heading": words.text("console.signin.title"), "lead": words.text("console.signin.lead"), "base": Self.signIn,
        ]
        return renderer.page(
            "first-party-email", title: words.text("console.signin.title"), values.compactMapValues { $0 }, words: words,
            cookie: cookie, frame: frame(words))
    }

    private func factorsPage(_ challenge: ChallengeResponse, _ state: PageState, words: PageWords, cookie: String) -> Response {
        let stepUp = state.console != nil
        var values: [String: Any] = [
            "progress": challenge.methods.map(\.id) == [.passkey]
                ? words.text("signin.passkey.oneStep") : FactorForms.progress(challenge, words: words),
            "methods": FactorForms.methods(challenge, base: Self.signIn, state: state, words: words),
            "cancelAction": "\(Self.signIn)/cancel", "cancelCsrf": PageCookies.csrfToken(state, action: "\(Self.signIn)/cancel"),
            "cancelLabel": words.text(stepUp ? "console.stepUp.cancel" : "console.signin.cancel"),
        ]
        let passkeyLabel = words.text(stepUp ? "consent.passkey.button" : "signin.passkey.button")
        if let passkey = FactorForms.passkey(challenge, base: Self.signIn, state: state, label: passkeyLabel) {
            values["passkey"] = passkey
        }
        if let account = state.email {
            values["signingInAs"] = words.html("signin.factors.signingInAs", ["account": account], strong: ["account"])
        }
        values["notice"] = state.notice.map(words.text)
        values["error"] = state.error.map(words.text)
        return renderer.page(
            "factors", title: words.text("signin.factors.title"), values, words: words, cookie: cookie, frame: frame(words))
    }

    /// A page that says one thing and offers the sign-in again.
    func message(
        _ heading: String, _ text: PageText, words: PageWords, status: HTTPResponse.Status, isError: Bool = false,
        cookie: String? = nil
    ) -> Response {
        let title = words.text(heading)
        var values: [String: Any] = ["heading": title, "message": words.text(text)]
        if isError || status.code >= 400 { values["isError"] = true }
        return renderer.page("console-message", title: title, values, words: words, status: status, cookie: cookie, frame: frame(words))
    }

    /// An operator asked for what their roles do not grant: the refusal page, the session kept.
    func forbidden(words: PageWords) -> Response {
        message("console.refused.title", PageText("console.error.forbidden"), words: words, status: .forbidden)
    }

    /// A signed-in user who holds no admin permission: a clear refusal, and no session kept.
    func refused(_ request: Request) -> Response {
        message(
            "console.refused.title", PageText("console.refused.message"), words: words(request), status: .forbidden,
            cookie: cookies.clearConsole())
    }

    /// A form whose visit or CSRF token does not hold: start again at the sign-in, nothing done.
    func restart() -> Response {
        PageRenderer.redirect(to: Self.base, cookie: cookies.clearConsole())
    }

    /// The visit's state when the form's CSRF token is this visit's for `action`.
    func verified(_ request: Request, form: [String: String], action: String) -> PageState? {
        guard let state = cookies.state(PageCookies.console, in: request),
            PageCookies.checkCSRF(state, action: action, presented: form["csrf"])
        else { return nil }
        return state
    }
}
