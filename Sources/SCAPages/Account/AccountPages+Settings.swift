import Foundation
import Hummingbird
import SCACore
import SCAEngine

// The user's own details on the account page: a new e-mail address or phone number (confirmed
// by a code sent to it before it counts), a new password or PIN, and an authenticator app drawn
// as a QR code. Each starts with a confirmation of its own (``startChange(_:_:action:form:)``),
// whose token the change spends.
extension AccountPages {
    /// `GET /account/settings/{change}`: the form of the change just confirmed, or for an
    /// authenticator app, the new seed as a QR code and the field for its first code.
    func changeForm(_ request: Request, change: String) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard let change = AccountChange(rawValue: change), change != .passkey, state.settingsPurpose == change else {
            return PageRenderer.redirect(to: Self.base)
        }
        let words = await words(request, user: session.userID, here: change.formPath)
        if change == .recoverySheet {
            return try await recoverySheet(state: state, words: words)
        }
        if change == .totp, state.totpSetup == nil {
            guard let token = state.settingsToken else { return PageRenderer.redirect(to: Self.base) }
            do {
                state.totpSetup = try await account.startTOTPSetup(settingsToken: token)
                state.settingsToken = nil
            } catch let problem as Problem where problem.status < 500 {
                state.settingsToken = nil
                state.settingsPurpose = nil
                state.error = Self.refusal(problem)
                return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
            }
        }
        guard change == .totp || state.settingsToken != nil else { return PageRenderer.redirect(to: Self.base) }
        let flash = state.error
        state.error = nil
        var values: [String: Any] = [
            "heading": words.text("account.change.\(change.rawValue).title"),
            "lead": words.text("account.change.\(change.rawValue).lead"),
            "action": change.formPath, "csrf": PageCookies.csrfToken(state, action: change.formPath),
            "cancelCsrf": PageCookies.csrfToken(state, action: "/account/settings/cancel"),
        ]
        values["error"] = flash.map(words.text)
        switch change {
        case .email:
            values["field"] = Self.field("value", type: "email", autocomplete: "email", label: words.text("account.change.email.field"))
        case .phone:
            values["field"] = Self.field("value", type: "tel", autocomplete: "tel", label: words.text("account.change.phone.field"))
        case .password:
            values["field"] = Self.field("value", type: "password", autocomplete: "new-password", label: words.text("account.change.password.field"))
            values["repeat"] = Self.field("repeat", type: "password", autocomplete: "new-password", label: words.text("account.change.repeat"))
        case .pin:
            var field = Self.field("value", type: "password", autocomplete: "off", label: words.text("account.change.pin.field"))
            field["numeric"] = true
            values["field"] = field
            var again = Self.field("repeat", type: "password", autocomplete: "off", label: words.text("account.change.repeat"))
            again["numeric"] = true
            values["repeat"] = again
        case .totp:
            guard let setup = state.totpSetup else { return PageRenderer.redirect(to: Self.base) }
            let code = try QRCode(bytes: Array(setup.otpauthUri.utf8), correction: .medium)
            values["qr"] = code.svg(moduleSize: 4, title: words.text("account.totp.qrTitle"))
            values["secret"] = Self.grouped(setup.secret)
            values["field"] = [
                "name": "code", "type": "text", "autocomplete": "one-time-code", "label": words.text("account.totp.code"),
                "numeric": true,
            ] as [String: Any]
        case .passkey, .recoverySheet:
            return PageRenderer.redirect(to: Self.base)
        }
        return renderer.page(
            change == .totp ? "account-totp" : "account-change", title: words.text("account.change.\(change.rawValue).title"),
            values, words: words, cookie: try cookies.accountCookie(state), frame: frame(words))
    }

    /// `POST /account/settings/{change}`: the change, spending the confirmation's token. A
    /// typo changes nothing and costs no new confirmation; a new address waits for its code.
    func change(_ request: Request, change: String, form: [String: String]) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard let change = AccountChange(rawValue: change), change != .passkey, change != .recoverySheet,
            state.settingsPurpose == change, PageCookies.checkCSRF(state, action: change.formPath, presented: form["csrf"])
        else { return formExpired(request, session: session) }
        let value = (form["value"] ?? "").trimmingCharacters(in: .whitespaces)
        if change == .totp {
            return try await confirmTOTP(form["code"] ?? "", state: state, session: session)
        }
        guard let token = state.settingsToken else { return PageRenderer.redirect(to: Self.base) }
        if change == .password || change == .pin, value != form["repeat"] ?? "" {
            state.error = PageText("account.change.mismatch")
            return PageRenderer.redirect(to: change.formPath, cookie: try cookies.accountCookie(state))
        }
        let asked: SettingsChangeRequest
        switch change {
        case .email: asked = SettingsChangeRequest(email: value)
        case .phone: asked = SettingsChangeRequest(phone: value)
        case .password: asked = SettingsChangeRequest(password: value)
        default: asked = SettingsChangeRequest(pin: value)
        }
        do {
            let changed = try await account.changeSettings(asked, settingsToken: token)
            state.settingsToken = nil
            state.settingsPurpose = nil
            if let waiting = changed.pendingConfirmations?.first {
                state.notice = PageText("account.done.codeSent", ["address": waiting.sentTo])
            } else {
                state.notice = PageText(change == .password ? "account.done.password" : change == .pin ? "account.done.pin" : "account.done.nothing")
            }
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.status == 400 || problem.code == .userExists {
            // Checked before the token is spent: the form again, with why.
            state.error = PageText(problem.code == .userExists ? "account.change.taken" : "account.change.\(change.rawValue).invalid")
            return PageRenderer.redirect(to: change.formPath, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.status < 500 {
            state.settingsToken = nil
            state.settingsPurpose = nil
            state.error = Self.refusal(problem)
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        }
    }

    /// The first code of a new authenticator app: right, and it replaces the old one.
    private func confirmTOTP(_ code: String, state visited: PageState, session: AccountSession) async throws -> Response {
        var state = visited
        do {
            try await account.confirmTOTPSetup(code: code.filter { !$0.isWhitespace }, for: session)
            state.totpSetup = nil
            state.settingsPurpose = nil
            state.notice = PageText("account.done.totp")
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.code == .confirmationCodeInvalid && (problem.remainingAttempts ?? 0) > 0
            || problem.code == .requestInvalid
        {
            state.error = PageText("account.error.wrongCode")
            return PageRenderer.redirect(to: AccountChange.totp.formPath, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.status < 500 {
            state.totpSetup = nil
            state.settingsPurpose = nil
            state.error = Self.refusal(problem)
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        }
    }

    /// A new recovery sheet, spending the confirmation's token: shown on this answer alone (it
    /// is never kept, not even in the visit's cookie), so reloading the page shows the
    /// overview, not the sheet.
    private func recoverySheet(state visited: PageState, words: PageWords) async throws -> Response {
        var state = visited
        guard let token = state.settingsToken else { return PageRenderer.redirect(to: Self.base) }
        state.settingsToken = nil
        state.settingsPurpose = nil
        let sheet: RecoverySheetResponse
        do {
            sheet = try await account.issueRecoverySheet(settingsToken: token)
        } catch let problem as Problem where problem.status < 500 {
            state.error = Self.refusal(problem)
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        }
        let values: [String: Any] = [
            "heading": words.text("account.change.recoverySheet.title"), "lead": words.text("account.change.recoverySheet.lead"),
            "code": sheet.recoveryCode, "puks": sheet.puks, "issued": words.dateTime(sheet.issuedAt),
        ]
        return renderer.page(
            "account-sheet", title: words.text("account.change.recoverySheet.title"), values, words: words,
            cookie: try cookies.accountCookie(state), frame: frame(words))
    }

    /// `POST /account/settings/cancel`: the confirmation's token and a waiting seed are dropped.
    func cancelChange(_ request: Request, form: [String: String]) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard PageCookies.checkCSRF(state, action: "/account/settings/cancel", presented: form["csrf"]) else {
            return formExpired(request, session: session)
        }
        state.settingsToken = nil
        state.settingsPurpose = nil
        state.totpSetup = nil
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `POST /account/contact/{channel}/confirm`: the code sent to the new address.
    func confirmContact(_ request: Request, channel: String, form: [String: String]) async throws -> Response {
        guard let channel = ContactChannel(rawValue: channel) else { return PageRenderer.redirect(to: Self.base) }
        return try await act(request, form: form, action: "/account/contact/\(channel.rawValue)/confirm", done: nil) { session -> PageText? in
            try await account.confirmContactChange(channel, code: (form["code"] ?? "").filter { !$0.isWhitespace }, for: session)
            return PageText(channel == .email ? "account.done.emailChanged" : "account.done.phoneChanged")
        }
    }

    /// `POST /account/contact/{channel}/cancel`: the new address is dropped unconfirmed.
    func cancelContact(_ request: Request, channel: String, form: [String: String]) async throws -> Response {
        guard let channel = ContactChannel(rawValue: channel) else { return PageRenderer.redirect(to: Self.base) }
        return try await act(
            request, form: form, action: "/account/contact/\(channel.rawValue)/cancel", done: PageText("account.done.contactCancelled")
        ) { session in
            try await account.cancelContactChange(channel, for: session)
        }
    }

    /// Why a change was refused, in words the page shows.
    static func refusal(_ problem: Problem) -> PageText {
        switch problem.code {
        case .userRestricted: PageText("account.error.restricted")
        case .confirmationCodeInvalid: PageText(problem.remainingAttempts == 0 ? "account.error.codeDropped" : "account.error.wrongCode")
        case .confirmationNothingPending: PageText("account.error.nothingPending")
        case .requestInvalid: PageText("account.error.wrongCode")
        default: problem.status == 401 || problem.status == 403 ? PageText("account.error.confirmAgain") : PageText("account.error.actionFailed")
        }
    }

    static func field(_ name: String, type: String, autocomplete: String, label: String) -> [String: Any] {
        ["name": name, "type": type, "autocomplete": autocomplete, "label": label]
    }

    /// A Base32 key in groups of four, as authenticator apps show and accept it.
    static func grouped(_ secret: String) -> String {
        stride(from: 0, to: secret.count, by: 4).map { start in
            let from = secret.index(secret.startIndex, offsetBy: start)
            return String(secret[from..<(secret.index(from, offsetBy: 4, limitedBy: secret.endIndex) ?? secret.endIndex)])
        }.joined(separator: " ")
    }
}
