import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization

// The signed-in account page: the overview, and the forms that change it. Each form posts with
// its CSRF token to a route of its own; each answer is a redirect back to the overview, which
// says what was done or why nothing was.
extension AccountPages {
    /// The signed-in user of a visit, or the answer that sends the browser elsewhere.
    enum Visit {
        case signedIn(PageState, AccountSession)
        case elsewhere(Response)

        /// Where a visit that is not signed in goes (the overview, for one that is).
        var elsewhere: Response {
            if case .elsewhere(let response) = self { return response }
            return PageRenderer.redirect(to: AccountPages.base)
        }
    }

    /// The visit's session, now: one that ended or idled out goes back to the sign-in saying so.
    func visit(_ request: Request) async throws -> Visit {
        guard let state = cookies.state(PageCookies.account, in: request), let session = state.account else {
            return .elsewhere(PageRenderer.redirect(to: Self.base))
        }
        do {
            try await account.resume(session)
            return .signedIn(state, session)
        } catch let problem as Problem where problem.status == 401 {
            return .elsewhere(PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(endedVisit())))
        }
    }

    func overviewPage(_ session: AccountSession, _ flash: PageState, state: PageState, words: PageWords) async throws -> Response {
        let overview = try await account.overview(for: session)
        var values = Self.values(overview, state: state, words: words)
        values["notice"] = flash.notice.map(words.text)
        values["error"] = flash.error.map(words.text)
        return renderer.page(
            "account-overview", title: words.text("account.page.title"), values, words: words,
            cookie: try cookies.accountCookie(state), frame: frame(words))
    }

    // MARK: Actions

    /// `POST /account/devices/{id}/remove`.
    func removeDevice(_ request: Request, id: String, form: [String: String]) async throws -> Response {
        try await act(request, form: form, action: "/account/devices/\(id)/remove", done: PageText("account.done.deviceRemoved")) {
            try await account.removeDevice(id, for: $0)
        }
    }

    /// `POST /account/devices/{id}/rename`.
    func renameDevice(_ request: Request, id: String, form: [String: String]) async throws -> Response {
        try await act(
            request, form: form, action: "/account/devices/\(id)/rename", done: PageText("account.done.deviceRenamed"),
            invalid: PageText("account.error.deviceName")
        ) {
            try await account.renameDevice(id, to: form["name"] ?? "", for: $0)
        }
    }

    /// `POST /account/passkeys/{id}/remove`.
    func removePasskey(_ request: Request, id: String, form: [String: String]) async throws -> Response {
        try await act(request, form: form, action: "/account/passkeys/\(id)/remove", done: PageText("account.done.passkeyRemoved")) {
            try await account.removePasskey(id, for: $0)
        }
    }

    /// `POST /account/sessions/{id}/end`.
    func endSession(_ request: Request, id: String, form: [String: String]) async throws -> Response {
        try await act(request, form: form, action: "/account/sessions/\(id)/end", done: PageText("account.done.sessionEnded")) {
            _ = try await account.endSession(id, of: $0.userID, asking: $0.sessionID)
        }
    }

    /// `POST /account/sessions/end-others`.
    func endOtherSessions(_ request: Request, form: [String: String]) async throws -> Response {
        try await act(request, form: form, action: "/account/sessions/end-others", done: nil) { session -> PageText? in
            let ended = try await account.endOtherSessions(of: session.userID, keeping: session.sessionID).ended
            return PageText("account.done.sessionsEnded", count: ended)
        }
    }

    /// `POST /account/partners/{clientId}/revoke`.
    func revokePartner(_ request: Request, clientID: String, form: [String: String]) async throws -> Response {
        try await act(request, form: form, action: "/account/partners/\(clientID)/revoke", done: PageText("account.done.partnerRevoked")) {
            _ = try await account.revokePartner(clientID, of: $0.userID, asking: $0.sessionID)
        }
    }

    /// `POST /account/consents/{id}/revoke`.
    func revokeConsent(_ request: Request, id: String, form: [String: String]) async throws -> Response {
        try await act(request, form: form, action: "/account/consents/\(id)/revoke", done: PageText("account.done.consentRevoked")) {
            _ = try await account.revokeConsent(id, of: $0.userID, asking: $0.sessionID)
        }
    }

    /// `POST /account/beneficiaries/{id}/remove`.
    func removeBeneficiary(_ request: Request, id: String, form: [String: String]) async throws -> Response {
        try await act(
            request, form: form, action: "/account/beneficiaries/\(id)/remove", done: PageText("account.done.beneficiaryRemoved")
        ) {
            try await account.removeBeneficiary(id, for: $0)
        }
    }

    // MARK: Adding a passkey

    /// `POST /account/passkeys/add`: a `settings_change` challenge of its own, whose factor
    /// forms the page shows next; its token then serves the new passkey alone.
    func startPasskey(_ request: Request, form: [String: String]) async throws -> Response {
        try await startChange(.passkey, request, action: "/account/passkeys/add", form: form)
    }

    /// A `settings_change` challenge of its own for `change`, whose factor forms the page shows
    /// next; its token then serves that change alone.
    func startChange(_ change: AccountChange, _ request: Request, action: String, form: [String: String]) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard PageCookies.checkCSRF(state, action: action, presented: form["csrf"]) else {
            return formExpired(request, session: session)
        }
        do {
            state.challengeID = try await account.startSettingsChange(for: session).challengeId
            state.settingsToken = nil
            state.settingsPurpose = change
            state.totpSetup = nil
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited ? FactorForms.message(for: problem) : PageText("account.error.actionFailed")
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    /// `GET /account/passkeys/new`: the name and the browser's ceremony, after the confirmation.
    func newPasskey(_ request: Request) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard let token = state.settingsToken else { return PageRenderer.redirect(to: Self.base) }
        let words = await words(request, user: session.userID, here: Self.newPasskey)
        let options: PasskeyCreationOptions
        do {
            options = try await account.passkeyOptions(settingsToken: token)
        } catch let problem as Problem where problem.status < 500 {
            state.settingsToken = nil
            state.error = PageText(problem.code == .passkeyUnavailable ? "account.error.passkeyUnavailable" : "account.error.passkey")
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        }
        let flash = state.error
        state.error = nil
        var values: [String: Any] = [
            "options": String(decoding: try WireJSON.encode(options), as: UTF8.self),
            "csrf": PageCookies.csrfToken(state, action: "/account/passkeys"),
            "cancelCsrf": PageCookies.csrfToken(state, action: "/account/passkeys/cancel"),
            "name": words.text("account.passkey.new.defaultName"),
        ]
        values["error"] = flash.map(words.text)
        return renderer.page(
            "account-passkey", title: words.text("account.passkey.new.title"), values, words: words,
            cookie: try cookies.accountCookie(state), frame: frame(words))
    }

    /// `POST /account/passkeys`: registers the credential the browser made, spending the
    /// confirmation's token. A refused one changes nothing and may be tried again while the
    /// confirmation's token lasts.
    func addPasskey(_ request: Request, form: [String: String]) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard PageCookies.checkCSRF(state, action: "/account/passkeys", presented: form["csrf"]), let token = state.settingsToken
        else { return formExpired(request, session: session) }
        guard let text = form["credential"], !text.isEmpty,
            let credential = try? WireJSON.sharedDecoder.decode(PasskeyRegistrationCredential.self, from: Data(text.utf8))
        else {
            state.error = PageText("account.passkey.new.failed")
            return PageRenderer.redirect(to: Self.newPasskey, cookie: try cookies.accountCookie(state))
        }
        let name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        do {
            _ = try await account.addPasskey(credential, name: name.isEmpty ? nil : name, settingsToken: token)
            state.settingsToken = nil
            state.notice = PageText("account.done.passkeyAdded")
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.status == 401 || problem.status == 403 {
            // The confirmation is spent or too old: ask again from the overview.
            state.settingsToken = nil
            state.error = PageText("account.error.confirmAgain")
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
        } catch let problem as Problem where problem.status < 500 {
            state.error = PageText(problem.code == .passkeyAlreadyRegistered ? "account.error.passkeyKnown" : "account.error.passkey")
            return PageRenderer.redirect(to: Self.newPasskey, cookie: try cookies.accountCookie(state))
        }
    }

    /// `POST /account/passkeys/cancel`: the confirmation's token is dropped unused.
    func cancelPasskey(_ request: Request, form: [String: String]) async throws -> Response {
        let visited = try await visit(request)
        guard case .signedIn(var state, let session) = visited else { return visited.elsewhere }
        guard PageCookies.checkCSRF(state, action: "/account/passkeys/cancel", presented: form["csrf"]) else {
            return formExpired(request, session: session)
        }
        state.settingsToken = nil
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }

    // MARK: Helpers

    func act(
        _ request: Request, form: [String: String], action: String, done: PageText?, invalid: PageText? = nil,
        _ body: (AccountSession) async throws -> Void
    ) async throws -> Response {
        try await act(request, form: form, action: action, done: done, invalid: invalid) { session -> PageText? in
            try await body(session)
            return nil
        }
    }

    /// Runs `body` for the visit's session when the form's CSRF token is this visit's for
    /// `action`; back to the overview with what was done, or why nothing was.
    /// - Parameter invalid: what to say of input the server refused (`request.invalid`).
    func act(
        _ request: Request, form: [String: String], action: String, done: PageText?, invalid: PageText? = nil,
        _ body: (AccountSession) async throws -> PageText?
    ) async throws -> Response {
        var state: PageState
        let session: AccountSession
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, session) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        guard PageCookies.checkCSRF(state, action: action, presented: form["csrf"]) else {
            return formExpired(request, session: session)
        }
        do {
            state.notice = try await body(session) ?? done
        } catch let problem as Problem where problem.status < 500 {
            if problem.code == .requestInvalid, let invalid {
                state.error = invalid
                return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
            }
            let worded: Set<ProblemCode> = [.confirmationCodeInvalid, .confirmationNothingPending, .userRestricted, .requestInvalid]
            state.error =
                worded.contains(problem.code) ? Self.refusal(problem)
                : problem.code == .userExists ? PageText("account.change.taken")
                : PageText(
                    problem.code == .consentClosed ? "account.error.consentClosed"
                        : problem.status == 404 ? "account.error.notFound" : "account.error.actionFailed")
        }
        return PageRenderer.redirect(to: Self.base, cookie: try cookies.accountCookie(state))
    }


    /// A form of another visit, or forged: nothing done, and the page says so.
    func formExpired(_ request: Request, session: AccountSession) -> Response {
        renderer.errorPage(
            heading: "account.error.formExpiredTitle", message: PageText("account.error.formExpired"),
            words: renderer.words(for: request, here: Self.base), status: .forbidden)
    }

    // MARK: Values

    static func values(_ overview: AccountOverviewResponse, state: PageState, words: PageWords) -> [String: Any] {
        func form(_ action: String, label: String) -> [String: Any] {
            ["action": action, "csrf": PageCookies.csrfToken(state, action: action), "label": label]
        }
        let devices: [[String: Any]] = overview.devices.map { device in
            form("/account/devices/\(device.deviceId)/remove", label: words.text("account.device.removeLabel", ["name": device.name]))
                .merging([
                    "id": device.deviceId,
                    "rename": form(
                        "/account/devices/\(device.deviceId)/rename",
                        label: words.text("account.device.renameLabel", ["name": device.name])),
                    "name": device.name, "platform": device.platform,
                    "status": words.text("account.deviceStatus.\(device.status.rawValue)"),
                    "statusClass": device.status == .active ? "ok" : "bad",
                    "lastUsed": device.lastUsedAt.map(words.dateTime) ?? words.text("account.never"),
                ]) { $1 }
        }
        let passkeys: [[String: Any]] = overview.passkeys.map { passkey in
            form("/account/passkeys/\(passkey.passkeyId)/remove", label: words.text("account.passkey.removeLabel", ["name": passkey.name]))
                .merging([
                    "name": passkey.name, "added": words.dateTime(passkey.createdAt),
                    "lastUsed": passkey.lastUsedAt.map(words.dateTime) ?? words.text("account.never"),
                ]) { $1 }
        }
        let sessions: [[String: Any]] = overview.sessions.map { session in
            var row: [String: Any] = ["started": words.dateTime(session.createdAt), "lastUsed": words.dateTime(session.lastUsedAt)]
            if session.current {
                row["current"] = true
            } else {
                row["end"] = form(
                    "/account/sessions/\(session.sessionId)/end",
                    label: words.text("account.session.endLabel", ["time": words.dateTime(session.createdAt)]))
            }
            return row
        }
        let partners: [[String: Any]] = overview.partners.map { partner in
            form(
                "/account/partners/\(partner.clientId)/revoke",
                label: words.text("account.partner.revokeLabel", ["name": partner.clientName])
            ).merging([
                "name": partner.clientName, "may": scopes(partner.scopes, words: words), "since": words.dateTime(partner.grantedAt),
            ]) { $1 }
        }
        let consents: [[String: Any]] = overview.consents.map { consent in
            var row: [String: Any] = [
                "partner": consent.clientName, "what": what(consent, words: words),
                "status": words.text("account.consents.status.\(consent.status.rawValue)"),
            ]
            if consent.revocable {
                row["revoke"] = form(
                    "/account/consents/\(consent.consentId)/revoke",
                    label: words.text("account.consent.revokeLabel", ["name": consent.clientName]))
            }
            return row
        }
        let beneficiaries: [[String: Any]] = overview.beneficiaries.map { beneficiary in
            form(
                "/account/beneficiaries/\(beneficiary.beneficiaryId)/remove",
                label: words.text("account.beneficiary.removeLabel", ["name": beneficiary.name])
            ).merging(["name": beneficiary.name, "iban": beneficiary.iban, "added": words.dateTime(beneficiary.addedAt)]) { $1 }
        }
        let activity: [[String: Any]] = overview.activity.map { line in
            var text = words.text("account.activity.\(line.kind.rawValue)")
            if let amount = line.amount, let currency = line.currency {
                text += ": " + words.text(
                    "account.activity.payment", ["amount": words.amount(amount, currency: currency), "payee": line.payee ?? ""])
            }
            if let name = line.name { text += ": " + name }
            return ["time": words.dateTime(line.time), "what": text, "network": line.network ?? ""]
        }
        var values: [String: Any] = [
            "details": details(overview, state: state, words: words),
            "email": overview.email, "signOutCsrf": PageCookies.csrfToken(state, action: "/account/signout"),
            "addPasskeyCsrf": PageCookies.csrfToken(state, action: "/account/passkeys/add"),
            "recoveryCsrf": PageCookies.csrfToken(state, action: "/account/settings/recoverySheet/start"),
            "devices": devices, "passkeys": passkeys, "sessions": sessions, "partners": partners, "consents": consents,
            "beneficiaries": beneficiaries, "activity": activity,
            "hasDevices": !devices.isEmpty, "hasPasskeys": !passkeys.isEmpty, "hasPartners": !partners.isEmpty,
            "hasConsents": !consents.isEmpty, "hasBeneficiaries": !beneficiaries.isEmpty, "hasActivity": !activity.isEmpty,
        ]
        if overview.sessions.count > 1 {
            values["endOthers"] = ["csrf": PageCookies.csrfToken(state, action: "/account/sessions/end-others")]
        }
        if let sheet = overview.recoverySheet {
            values["recovery"] = words.text("account.recovery.status", count: sheet.puksLeft, ["issued": words.dateTime(sheet.issuedAt)])
            if sheet.locked { values["recoveryLocked"] = true }
        } else {
            values["recovery"] = words.text("account.recovery.none")
        }
        return values
    }

    /// The user's details, each with the button that starts its change, and a new address
    /// waiting for its code with the field for it.
    static func details(_ overview: AccountOverviewResponse, state: PageState, words: PageWords) -> [[String: Any]] {
        let set = words.text("account.details.set")
        let notSet = words.text("account.details.notSet")
        let shown: [(AccountChange, String)] = [
            (.email, overview.email), (.phone, overview.phone ?? notSet), (.password, set),
            (.pin, overview.hasPIN ? set : notSet), (.totp, overview.hasAuthenticatorApp ? set : notSet),
        ]
        return shown.map { change, value in
            let action = "/account/settings/\(change.rawValue)/start"
            var row: [String: Any] = [
                "label": words.text("account.details.\(change.rawValue)"), "value": value, "action": action,
                "csrf": PageCookies.csrfToken(state, action: action), "button": words.text("account.change.\(change.rawValue).button"),
            ]
            let channel: ContactChannel? = change == .email ? .email : change == .phone ? .phone : nil
            if let channel, let waiting = overview.pendingContactChanges.first(where: { $0.channel == channel }) {
                let confirm = "/account/contact/\(channel.rawValue)/confirm"
                let cancel = "/account/contact/\(channel.rawValue)/cancel"
                row["pending"] = [
                    "waiting": words.text("account.pending.waiting", ["address": waiting.sentTo]), "channel": channel.rawValue,
                    "confirmAction": confirm, "confirmCsrf": PageCookies.csrfToken(state, action: confirm),
                    "cancelAction": cancel, "cancelCsrf": PageCookies.csrfToken(state, action: cancel),
                ] as [String: Any]
            }
            return row
        }
    }

    /// What a partner may do, in words: the scopes the page knows, each said; others as named.
    static func scopes(_ scopes: [String], words: PageWords) -> String {
        let known: Set<String> = ["openid", "profile", "email", "offline", "offline_access", "consents"]
        let said = scopes.map { known.contains($0) ? words.text("account.scope.\($0)") : $0 }
        return said.isEmpty ? words.text("account.scope.none") : said.joined(separator: ", ")
    }

    static func what(_ consent: AccountConsentResponse, words: PageWords) -> String {
        switch consent.operation {
        case .payment:
            guard let amount = consent.amount, let currency = consent.currency else { return words.text("account.consents.paymentPlain") }
            return words.text("account.consents.payment", ["amount": words.amount(amount, currency: currency), "payee": consent.payee ?? ""])
        case .beneficiaryAdd:
            return words.text("account.consents.beneficiary", ["name": consent.beneficiary ?? ""])
        case .settingsChange:
            return consent.summary ?? ""
        }
    }
}
