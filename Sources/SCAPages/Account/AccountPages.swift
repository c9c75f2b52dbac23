import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization

/// The user's own account page at `/account`, over ``AccountOverviewService`` alone: the
/// sign-in (the hosted sign-in's factor forms, on a first-party login challenge), then the
/// overview and its forms. One sealed cookie (``PageCookies/accountCookie(_:)``) carries the
/// visit: the sign-in's progress, then the user's session; every form carries its CSRF token.
/// A partner's token never reaches it: the page takes no bearer token at all, only the session
/// its own sign-in opened.
struct AccountPages: Sendable {
    let account: AccountOverviewService
    let users: UserService
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime

    static let base = "/account"
    static let signIn = "/account/signin"
    static let newPasskey = "/account/passkeys/new"

    func frame(_ words: PageWords) -> PageFrame {
        PageFrame(bodyClass: "account")
    }

    func words(_ request: Request, user: String? = nil, here: String = base) async -> PageWords {
        var stored: Language?
        if let user { stored = try? await users.language(ofUser: user) }
        return renderer.words(for: request, stored: stored, here: here)
    }

    // MARK: Sign-in

    /// `GET /account`: the sign-in step the visit is at, a confirmation under way, or the
    /// overview once signed in.
    func home(_ request: Request) async throws -> Response {
        var state = cookies.state(PageCookies.account, in: request) ?? PageState(secret: PageCookies.newSecret(runtime))
        let flash = state
        state.notice = nil
        state.error = nil
        if let session = state.account {
            do {
                try await account.resume(session)
            } catch let problem as Problem where problem.status == 401 {
                let fresh = endedVisit()
                return emailPage(fresh, words: await words(request), cookie: try cookies.accountCookie(fresh))
            }
        }
        let words = await words(request, user: state.account?.userID)
        if let challengeID = state.challengeID {
            if let challenge = try? await account.signIn.challenge(challengeID), challenge.state == .pending {
                return factorsPage(challenge, flash, words: words, cookie: try cookies.accountCookie(state))
            }
            state.challengeID = nil
            if state.account == nil {
                var expired = state
                expired.error = PageText("signin.error.tooLong")
                return emailPage(expired, words: words, cookie: try cookies.accountCookie(state))
            }
        }
        if let session = state.account {
            return try await overviewPage(session, flash, state: state, words: words)
        }
        return emailPage(flash, words: words, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/signin/email`.
    func email(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/email"), state.account == nil else {
            return restart()
        }
        let address = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        try await FactorForms.startSignIn(email: address, into: &state) { try await account.signIn.start(email: address) }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/signin/passkey`: a discoverable passkey instead of the e-mail.
    func passkeySignIn(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/passkey"), state.account == nil else {
            return restart()
        }
        try await FactorForms.startSignIn(email: nil, into: &state) { try await account.signIn.startWithPasskey() }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/signin/send`: sends (or resends) an SMS or e-mail code.
    func send(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/send"), let challengeID = state.challengeID else {
            return restart()
        }
        try await FactorForms.sendCode(form, into: &state) { try await account.signIn.sendCode($0, for: challengeID) }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/signin/proof`: one factor. The last one of a sign-in opens the page's
    /// session; the last one of a confirmation (signed in already) keeps its token for the
    /// change it was asked for.
    func proof(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/proof"), let challengeID = state.challengeID else {
            return restart()
        }
        guard let proof = FactorForms.proof(in: form) else {
            state.error = FactorForms.emptyFieldMessage
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        }
        do {
            let response = try await account.signIn.submit(proof, to: challengeID)
            guard let tokens = response.tokens else {
                state.notice = PageText("factor.oneMoreStep")
                return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
            }
            state.challengeID = nil
            state.email = nil
            if let session = state.account {
                // The user's own confirmation of a change: its token serves that change only.
                guard await account.settingsToken(tokens.accessToken, belongsTo: session) else { return restart() }
                state.settingsToken = tokens.accessToken
                let purpose = state.settingsPurpose ?? .passkey
                return PageRenderer.redirect(to: purpose.formPath, cookie: try cookies.accountCookie(state))
            }
            state.account = try await account.open(tokens)
            // A new key for the signed-in visit's forms: none made before the sign-in counts.
            state.secret = PageCookies.newSecret(runtime)
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.status == 403 {
            return message(
                "account.refused.title", PageText("account.refused.message"), words: await words(request), status: .forbidden,
                cookie: cookies.clearAccount())
        } catch let problem as Problem where problem.status < 500 {
            if FactorForms.refusedProof(problem, into: &state) {
                return message(
                    "signin.blocked.title", PageText("signin.blocked.message"), words: await words(request), status: .forbidden,
                    cookie: cookies.clearAccount())
            }
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/signin/cancel`: back to the e-mail, or, from a confirmation, to the
    /// overview with nothing changed.
    func cancel(_ request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(request, form: form, action: "\(Self.signIn)/cancel") else { return restart() }
        if let challengeID = state.challengeID { try? await account.signIn.cancel(challengeID) }
        state.challengeID = nil
        state.error = nil
        state.notice = nil
        guard state.account != nil else {
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(PageState(secret: state.secret)))
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/signout`: the session ends on every instance, and the cookie goes.
    func signOut(_ request: Request, form: [String: String]) async throws -> Response {
        guard let state = verified(request, form: form, action: "/account/signout"), let session = state.account else {
            return restart()
        }
        try await account.close(session)
        return message(
            "account.signedOut.title", PageText("account.signedOut.message"), words: await words(request), status: .ok,
            cookie: cookies.clearAccount())
    }

    // MARK: Pages

    private func emailPage(_ state: PageState, words: PageWords, cookie: String) -> Response {
        let values: [String: Any?] = [
            "csrf": PageCookies.csrfToken(state, action: "\(Self.signIn)/email"),
            "passkeyCsrf": PageCookies.csrfToken(state, action: "\(Self.signIn)/passkey"),
            "email": state.email, "notice": state.notice.map(words.text), "error": state.error.map(words.text),
            "heading": words.text("account.signin.title"), "lead": words.text("account.signin.lead"), "base": Self.signIn,
        ]
        return renderer.page(
            "first-party-email", title: words.text("account.signin.title"), values.compactMapValues { $0 }, words: words,
            cookie: cookie, frame: frame(words))
    }

    private func factorsPage(_ challenge: ChallengeResponse, _ state: PageState, words: PageWords, cookie: String) -> Response {
        let confirming = state.account != nil
        var values: [String: Any] = [
            "progress": challenge.methods.map(\.id) == [.passkey]
                ? words.text("signin.passkey.oneStep") : FactorForms.progress(challenge, words: words),
            "methods": FactorForms.methods(challenge, base: Self.signIn, state: state, words: words),
            "cancelAction": "\(Self.signIn)/cancel", "cancelCsrf": PageCookies.csrfToken(state, action: "\(Self.signIn)/cancel"),
            "cancelLabel": words.text(confirming ? "account.confirm.cancel" : "account.signin.cancel"),
        ]
        // What the confirmation is for, under the heading (the lead above it is a partner's).
        if confirming {
            let purpose = (state.settingsPurpose ?? .passkey).rawValue
            values["signingInAs"] = words.html("account.confirm.\(purpose)", [:], strong: [])
        }
        let passkeyLabel = words.text(confirming ? "consent.passkey.button" : "signin.passkey.button")
        if let passkey = FactorForms.passkey(challenge, base: Self.signIn, state: state, label: passkeyLabel) {
            values["passkey"] = passkey
        }
        if !confirming, let address = state.email {
            values["signingInAs"] = words.html("signin.factors.signingInAs", ["account": address], strong: ["account"])
        }
        values["notice"] = state.notice.map(words.text)
        values["error"] = state.error.map(words.text)
        return renderer.page(
            "factors", title: words.text("signin.factors.title"), values, words: words, cookie: cookie, frame: frame(words))
    }

    /// A page that says one thing and offers the sign-in again.
    func message(
        _ heading: String, _ text: PageText, words: PageWords, status: HTTPResponse.Status, cookie: String? = nil
    ) -> Response {
        let title = words.text(heading)
        var values: [String: Any] = ["heading": title, "message": words.text(text)]
        if status.code >= 400 { values["isError"] = true }
        return renderer.page("account-message", title: title, values, words: words, status: status, cookie: cookie, frame: frame(words))
    }

    /// A new visit that says the last one's session ended (signed out elsewhere, idled out).
    func endedVisit() -> PageState {
        var fresh = PageState(secret: PageCookies.newSecret(runtime))
        fresh.error = PageText("account.error.sessionEnded")
        return fresh
    }

    /// A form whose visit or CSRF token does not hold: back to the start, nothing done.
    func restart() -> Response {
        PageRenderer.redirect(to: Self.base, cookie: cookies.clearAccount())
    }

    /// The visit's state when the form's CSRF token is this visit's for `action`.
    func verified(_ request: Request, form: [String: String], action: String) -> PageState? {
        guard let state = cookies.state(PageCookies.account, in: request),
            PageCookies.checkCSRF(state, action: action, presented: form["csrf"])
        else { return nil }
        return state
    }
}

extension AccountPages {
    /// The passkey creation script, with the same headers as the pages.
    static func passkeyScript() -> Response {
        var headers = PageRenderer.securityHeaders(formTarget: nil)
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: AccountTemplates.script)))
    }
}
