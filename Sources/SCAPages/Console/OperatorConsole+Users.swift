import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization

// The signed-in console: the users, one user's page, and the actions on it.
extension OperatorConsole {
    /// The operator of a signed-in visit, or the answer that sends the browser elsewhere.
    enum Visit {
        case signedIn(PageState, ConsoleOperator)
        case elsewhere(Response)
    }

    /// The visit's operator, now: a session that ended or idled out goes back to the sign-in
    /// saying so; an operator whose roles no longer grant an admin permission is refused.
    func visit(_ request: Request) async throws -> Visit {
        guard let state = cookies.state(PageCookies.console, in: request), let session = state.console else {
            return .elsewhere(PageRenderer.redirect(to: Self.base))
        }
        do {
            return .signedIn(state, try await console.resume(session))
        } catch let problem as Problem where problem.status == 401 {
            var fresh = PageState(secret: PageCookies.newSecret(runtime))
            fresh.error = PageText("console.error.sessionEnded")
            return .elsewhere(PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(fresh)))
        } catch let problem as Problem where problem.status == 403 {
            return .elsewhere(refused(request))
        }
    }

    /// `GET /console/users?q=…&after=…`: a page of the users found, from after the user `after`.
    func users(_ request: Request) async throws -> Response {
        let (state, actor): (PageState, ConsoleOperator)
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let query = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespaces)
        let words = words(request, here: request.uri.description)
        var values = nav(state, actor)
        values["query"] = query
        if !query.isEmpty {
            do {
                let after = request.uri.queryParameters.get("after").map { String($0) }
                let page = try await console.search(query, after: after, by: actor)
                let found = page.users
                values["searched"] = true
                if found.isEmpty { values["none"] = true } else { values["hasResults"] = true }
                values["resultsCaption"] = words.text("console.users.results", count: found.count)
                values["results"] = found.map { row(for: $0, words: words) }
                if let next = page.next {
                    values["next"] = link(Self.usersPage, [URLQueryItem(name: "q", value: query), URLQueryItem(name: "after", value: next)])
                }
            } catch let problem as Problem where problem.status == 403 {
                return forbidden(words: words)
            }
        }
        return renderer.page(
            "console-users", title: words.text("console.users.title"), values, words: words, frame: frame(words))
    }

    /// `GET /console/users/{id}`.
    func user(_ request: Request, id: String) async throws -> Response {
        var state: PageState
        let actor: ConsoleOperator
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let words = words(request, here: "\(Self.usersPage)/\(id)")
        let detail: ConsoleUserDetail
        do {
            detail = try await console.user(id, by: actor)
        } catch let problem as Problem where problem.status == 404 {
            return message("console.user.notFound.title", PageText("console.user.notFound.message"), words: words, status: .notFound)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        var values = nav(state, actor).merging(userValues(detail, state: state, actor: actor, words: words)) { $1 }
        values["notice"] = state.notice.map(words.text)
        values["error"] = state.error.map(words.text)
        state.notice = nil
        state.error = nil
        return renderer.page(
            "console-user", title: detail.summary.email, values, words: words, cookie: try cookies.consoleCookie(state),
            frame: frame(words))
    }

    // MARK: Actions

    /// `POST /console/users/{id}/restriction/lift`: refused, saying when, before the cooling-off ends.
    func liftRestriction(_ request: Request, userID: String, form: [String: String]) async throws -> Response {
        try await act(
            request, userID: userID, form: form, action: "restriction/lift", done: PageText("console.done.restrictionLifted")
        ) {
            try await console.liftRestriction(userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/unblock`.
    func unblock(_ request: Request, userID: String, form: [String: String]) async throws -> Response {
        try await act(request, userID: userID, form: form, action: "unblock", done: PageText("console.done.unblocked")) {
            try await console.unblock(userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/sessions/end`.
    func endSessions(_ request: Request, userID: String, form: [String: String]) async throws -> Response {
        try await act(request, userID: userID, form: form, action: "sessions/end", done: nil) { actor in
            let ended = try await console.endSessions(of: userID, by: actor)
            return PageText("console.done.sessionsEnded", count: ended)
        }
    }

    /// `POST /console/users/{id}/sessions/{sessionID}/end`.
    func endSession(_ request: Request, userID: String, sessionID: String, form: [String: String]) async throws -> Response {
        try await act(request, userID: userID, form: form, action: "sessions/\(sessionID)/end", done: PageText("console.done.sessionEnded")) {
            try await console.endSession(sessionID, of: userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/roles`: the roles ticked in the form.
    func setRoles(_ request: Request, userID: String, form: [String: String]) async throws -> Response {
        let roles = console.definedRoles.filter { form["role.\($0)"] == "on" }
        return try await act(request, userID: userID, form: form, action: "roles", done: PageText("console.done.rolesSet")) {
            try await console.setRoles(roles, of: userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/totp/remove`.
    func removeAuthenticatorApp(_ request: Request, userID: String, form: [String: String]) async throws -> Response {
        try await act(request, userID: userID, form: form, action: "totp/remove", done: PageText("console.done.totpRemoved")) {
            try await console.removeAuthenticatorApp(of: userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/partners/{clientID}/revoke`.
    func revokePartner(_ request: Request, userID: String, clientID: String, form: [String: String]) async throws -> Response {
        try await act(
            request, userID: userID, form: form, action: "partners/\(clientID)/revoke", done: PageText("console.done.partnerRevoked")
        ) {
            _ = try await console.revokePartner(clientID, of: userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/devices/{deviceID}/remove`.
    func removeDevice(_ request: Request, userID: String, deviceID: String, form: [String: String]) async throws -> Response {
        try await act(request, userID: userID, form: form, action: "devices/\(deviceID)/remove", done: PageText("console.done.deviceRemoved")) {
            try await console.removeDevice(deviceID, of: userID, by: $0)
        }
    }

    /// `POST /console/users/{id}/passkeys/{passkeyID}/remove`.
    func removePasskey(_ request: Request, userID: String, passkeyID: String, form: [String: String]) async throws -> Response {
        try await act(
            request, userID: userID, form: form, action: "passkeys/\(passkeyID)/remove", done: PageText("console.done.passkeyRemoved")
        ) {
            try await console.removePasskey(passkeyID, of: userID, by: $0)
        }
    }

    /// Runs one action of the user page: the form's CSRF token first (a forged one is refused
    /// with nothing done), then the action as the operator. An authentication older than five
    /// minutes asks for a step-up and comes back to the page; the operator then acts again.
    private func act(
        _ request: Request, userID: String, form: [String: String], action: String, done: PageText?,
        _ body: (ConsoleOperator) async throws -> Void
    ) async throws -> Response {
        try await act(request, userID: userID, form: form, action: action, done: done) { actor -> PageText? in
            try await body(actor)
            return nil
        }
    }

    private func act(
        _ request: Request, userID: String, form: [String: String], action: String, done: PageText?,
        _ body: (ConsoleOperator) async throws -> PageText?
    ) async throws -> Response {
        try await act(request, page: "\(Self.usersPage)/\(userID)", form: form, action: action, done: done, body)
    }

    /// Runs one action of a console page (`page`, where the browser goes back to; its form
    /// posts to `page/action`), as ``act(_:userID:form:action:done:_:)`` describes.
    func act(
        _ request: Request, page: String, form: [String: String], action: String, done: PageText?,
        _ body: (ConsoleOperator) async throws -> PageText?
    ) async throws -> Response {
        var state: PageState
        let actor: ConsoleOperator
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        guard PageCookies.checkCSRF(state, action: "\(page)/\(action)", presented: form["csrf"]) else {
            return message("console.error.formExpiredTitle", PageText("console.error.formExpired"), words: words(request), status: .forbidden)
        }
        do {
            let said = try await body(actor)
            state.notice = said ?? done
        } catch is ConsoleStepUpNeeded {
            state.challengeID = try await console.startStepUp(for: actor).challengeId
            state.email = actor.email
            state.returnTo = page
            state.notice = PageText("console.stepUp.needed")
            return PageRenderer.redirect(to: Self.base, cookie: try cookies.consoleCookie(state))
        } catch let problem as Problem where problem.status == 403 {
            state.error = PageText("console.error.forbidden")
        } catch let problem as Problem where problem.status < 500 {
            state.error = PageText(problem.status == 404 ? "console.error.notFound" : "console.error.actionFailed")
        }
        return PageRenderer.redirect(to: page, cookie: try cookies.consoleCookie(state))
    }

    // MARK: Values

    /// The bar's values: the pages the operator's roles let them read, and signing out.
    func nav(_ state: PageState, _ actor: ConsoleOperator) -> [String: Any] {
        var values: [String: Any] = ["operator": actor.email, "signOutCsrf": PageCookies.csrfToken(state, action: "/console/signout")]
        if actor.may(.riskRead) { values["navRisk"] = true }
        if actor.may(.auditRead) { values["navAudit"] = true }
        if actor.may(.clientsRead) { values["navPartners"] = true }
        return values
    }

    private func row(for user: ConsoleUserSummary, words: PageWords) -> [String: Any] {
        var values: [String: Any] = [
            "href": "\(Self.usersPage)/\(user.userID)", "email": user.email,
            "factors": user.methods.map { words.text("console.method.\($0.rawValue)") }.joined(separator: ", "),
            "created": words.dateTime(user.createdAt),
            "lastSCA": user.lastAuthenticatedAt.map(words.dateTime) ?? words.text("console.never"),
        ]
        values.merge(status(user.status, words: words)) { $1 }
        if let phone = user.phone { values["phone"] = phone }
        return values
    }

    private func status(_ status: ConsoleUserStatus, words: PageWords) -> [String: Any] {
        switch status {
        case .active: ["status": words.text("console.status.active"), "statusClass": "ok"]
        case .temporarilyBlocked(let until):
            ["status": words.text("console.status.temporary", ["until": words.dateTime(until)]), "statusClass": "warn"]
        case .permanentlyBlocked: ["status": words.text("console.status.permanent"), "statusClass": "bad"]
        }
    }

    private func userValues(
        _ detail: ConsoleUserDetail, state: PageState, actor: ConsoleOperator, words: PageWords
    ) -> [String: Any] {
        let summary = detail.summary
        let page = "\(Self.usersPage)/\(summary.userID)"
        func form(_ action: String) -> [String: Any] {
            ["action": "\(page)/\(action)", "csrf": PageCookies.csrfToken(state, action: "\(page)/\(action)")]
        }
        var values: [String: Any] = [
            "email": summary.email, "userId": summary.userID, "created": words.dateTime(summary.createdAt),
            "failedAttempts": String(detail.failedAttempts), "temporaryBlocks": String(detail.temporaryBlocks),
            "nextBlock": words.text(detail.temporaryBlocks >= 2 ? "console.user.nextBlock.permanent" : "console.user.nextBlock.temporary"),
            "lastSCA": summary.lastAuthenticatedAt.map(words.dateTime) ?? words.text("console.never"),
            "roles": detail.roles.isEmpty ? words.text("console.user.noRoles") : detail.roles.joined(separator: ", "),
            "factors": factors(detail, words: words),
        ]
        values.merge(status(summary.status, words: words)) { $1 }
        if let phone = summary.phone { values["phone"] = phone }
        if summary.status.isBlocked, actor.may(.usersUnblock) { values["unblock"] = form("unblock") }
        if let until = detail.restrictedUntil {
            values["restricted"] = words.text("console.user.restricted", ["until": words.dateTime(until)])
            if actor.may(.usersUnblock) { values["liftRestriction"] = form("restriction/lift") }
        }

        if let devices = detail.devices {
            values["showsDevices"] = true
            let mayRemove = actor.may(.devicesWrite)
            values["devices"] = devices.map { device -> [String: Any] in
                var row: [String: Any] = [
                    "name": device.name, "id": device.deviceId, "platform": device.platform,
                    "status": words.text("console.device.\(device.status.rawValue)"),
                    "statusClass": device.status == .active ? "ok" : device.status == .blocked ? "warn" : "off",
                    "lastUsed": device.lastUsedAt.map(words.dateTime) ?? words.text("console.never"),
                ]
                if mayRemove, device.status != .removed {
                    var remove = form("devices/\(device.deviceId)/remove")
                    remove["label"] = words.text("console.user.removeDevice", ["name": device.name])
                    row["remove"] = remove
                }
                return row
            }
            values["hasDevices"] = !devices.isEmpty
            let passkeys = detail.passkeys ?? []
            values["passkeys"] = passkeys.map { passkey -> [String: Any] in
                var row: [String: Any] = [
                    "name": passkey.name, "status": words.text("console.passkey.\(passkey.status.rawValue)"),
                    "created": words.dateTime(passkey.createdAt),
                    "lastUsed": passkey.lastUsedAt.map(words.dateTime) ?? words.text("console.never"),
                ]
                if mayRemove {
                    var remove = form("passkeys/\(passkey.passkeyId)/remove")
                    remove["label"] = words.text("console.user.removePasskey", ["name": passkey.name])
                    row["remove"] = remove
                }
                return row
            }
            values["hasPasskeys"] = !passkeys.isEmpty
        }

        let mayEnd = actor.may(.usersWrite)
        values["sessions"] = detail.sessions.map { session -> [String: Any] in
            let application = session.clientID.map { words.text("console.user.partnerApp", ["client": $0]) }
                ?? words.text("console.user.ownApp")
            var row: [String: Any] = [
                "application": application, "started": words.dateTime(session.createdAt),
                "lastUsed": words.dateTime(session.lastUsedAt),
            ]
            if mayEnd {
                var end = form("sessions/\(session.id)/end")
                end["label"] = words.text("console.user.endSession", ["application": application])
                row["end"] = end
            }
            return row
        }
        values["hasSessions"] = !detail.sessions.isEmpty
        if !detail.sessions.isEmpty, actor.may(.usersWrite) { values["endSessions"] = form("sessions/end") }
        values["partners"] = detail.partners.map { partner -> [String: Any] in
            var row: [String: Any] = [
                "client": partner.clientID, "name": partner.name ?? partner.clientID, "lastSignIn": partner.lastSignIn.map(words.dateTime) ?? words.text("console.never"),
                "sessions": String(partner.openSessions), "consents": String(partner.openConsents),
            ]
            if mayEnd, partner.holdsAccess {
                var revoke = form("partners/\(partner.clientID)/revoke")
                revoke["label"] = words.text("console.user.revokePartnerLabel", ["client": partner.name ?? partner.clientID])
                row["revoke"] = revoke
            }
            return row
        }
        values["hasPartners"] = !detail.partners.isEmpty
        if detail.hasTOTP, mayEnd { values["removeTOTP"] = form("totp/remove") }

        if actor.may(.usersRoles), actor.userID != summary.userID, !console.definedRoles.isEmpty {
            var rolesForm = form("roles")
            rolesForm["roles"] = console.definedRoles.map { role -> [String: Any] in
                var box: [String: Any] = ["name": role, "field": "role.\(role)", "id": "role-\(role)"]
                if detail.roles.contains(role) { box["checked"] = true }
                return box
            }
            values["rolesForm"] = rolesForm
        }
        values["timeline"] = detail.timeline.map { ConsoleTimeline.row($0, payment: detail.payments[$0.sequence], words: words) }
        values["hasTimeline"] = !detail.timeline.isEmpty
        return values
    }

    private func factors(_ detail: ConsoleUserDetail, words: PageWords) -> [String] {
        var factors: [String] = []
        if detail.hasPassword { factors.append(words.text("console.method.password")) }
        if detail.hasPIN { factors.append(words.text("console.method.pin")) }
        if detail.hasTOTP { factors.append(words.text("console.method.totp")) }
        if let phone = detail.summary.phone { factors.append(words.text("console.factor.sms", ["phone": phone])) }
        if detail.summary.methods.contains(.emailOTP) { factors.append(words.text("console.method.email_otp")) }
        return factors.isEmpty ? [words.text("console.factor.none")] : factors
    }
}
