import Foundation
import SCACore
import SCAStorage

/// What the operator console does, in one service: it opens and resumes operators' sessions
/// and runs each read and action under the admin API's rules. An operator's roles decide what
/// they may read and do, checked again on every request; an action that changes something also
/// needs an authentication at most five minutes old (``OperatorStepUp``), and is recorded in
/// the audit trail with the operator as its actor.
package struct ConsoleService: EngineService, Sendable {
    package let context: EngineContext
    let access: AdminAccess
    let users: UserService
    let devices: DeviceService
    let passkeys: PasskeyService
    let challenges: ChallengeService
    /// The fraud rates and the exemptions granted (the risk page).
    let risk: RiskService
    /// The audit chain's check against the last checkpoint written (the audit page).
    let checkpoints: AuditCheckpoints
    /// Lifting the restriction a weak password reset left.
    let passwordResets: PasswordResetService
    /// Taking a partner's access to a user back, as the user can from their account page.
    let accounts: AccountOverviewService
    /// Partners' activity and delivery health (the partners page).
    let webhooks: WebhookService
    /// The counters the live overview draws.
    let metrics: ServerMetrics

    /// The most users one search lists.
    package static let searchLimit = 25
    /// The audit entries a user page shows.
    package static let timelineLength = 50

    // MARK: Sessions

    /// The console session of a completed sign-in.
    /// - Throws: 403 `auth.forbidden` when the operator's roles grant no admin scope, or the
    ///   sign-in was not strong customer authentication; 401 for tokens that are not valid.
    package func open(_ tokens: TokenResponse) async throws -> ConsoleSession {
        let principal: AdminPrincipal
        let sessionID: String
        do {
            (principal, sessionID) = try await access.authenticateOperator(tokens.accessToken)
        } catch {
            // Signed in, but no operator: the session the sign-in opened serves nothing.
            try? await access.tokens.revoke(tokens.accessToken)
            throw error
        }
        guard case .operator(let userID, let stepUp) = principal else { throw Problem.noAdminPermission }
        guard stepUp.acr == TokenResponse.scaACR, Set(stepUp.amr.map(\.category)).count >= 2 else {
            try? await store.revokeSession(id: sessionID, now: runtime.now())
            throw Problem.operatorRefused(.notStrong)
        }
        return ConsoleSession(
            sessionID: sessionID, userID: userID, permissions: stepUp.permissions, acr: stepUp.acr, amr: stepUp.amr,
            authenticatedAt: stepUp.authTime ?? stepUp.issuedAt)
    }

    /// The operator behind a console session, now: the session still open on the store (it
    /// counts as a use, so a session left alone idles out as any other), and the permissions
    /// the operator's roles still grant.
    /// - Throws: 401 `session.expired` for a session that ended or idled out; 403
    ///   `auth.forbidden` when the roles grant no admin scope any more.
    package func resume(_ session: ConsoleSession) async throws -> ConsoleOperator {
        let use = try await store.useSession(
            id: session.sessionID, now: runtime.now(), idleTimeout: TimeInterval(configuration.sessionIdleTimeout))
        guard case .active(let record) = use, record.userID == session.userID, record.clientID == nil else {
            throw Problem.sessionExpired
        }
        guard let user = try await store.user(id: session.userID) else { throw Problem.sessionExpired }
        let permissions = try await access.currentPermissions(of: user.id, within: session.permissions)
        return ConsoleOperator(
            userID: user.id, email: user.email, permissions: permissions,
            stepUp: OperatorStepUp(
                permissions: permissions, acr: session.acr, amr: session.amr, authTime: session.authenticatedAt,
                issuedAt: session.authenticatedAt))
    }

    /// The session of a step-up: a new sign-in of the same operator replaces the current one.
    /// - Throws: 403 `auth.forbidden` when the new sign-in is another user's (its session is
    ///   ended at once), or as ``open(_:)``.
    package func stepUp(_ current: ConsoleSession, with tokens: TokenResponse) async throws -> ConsoleSession {
        let renewed = try await open(tokens)
        guard renewed.userID == current.userID else {
            try await store.revokeSession(id: renewed.sessionID, now: runtime.now())
            throw Problem(status: 403, code: .forbidden, title: "Forbidden", detail: "The confirmation was another user's.")
        }
        try await store.revokeSession(id: current.sessionID, now: runtime.now())
        return renewed
    }

    /// Signs the operator out: their session ends on every instance.
    package func close(_ session: ConsoleSession) async throws {
        try await store.revokeSession(id: session.sessionID, now: runtime.now())
    }

    // MARK: Reads

    /// One page of the users `text` names (see ``UserService/search(_:after:limit:)``), from
    /// after the user `after`. Needs `users:read`.
    package func search(_ text: String, after: String? = nil, by actor: ConsoleOperator) async throws -> ConsoleSearchPage {
        try await requireRead(.usersRead, by: actor)
        // One more than a page, to know whether another follows.
        let found = try await users.search(text, after: after, limit: Self.searchLimit + 1)
        var summaries: [ConsoleUserSummary] = []
        for user in found.prefix(Self.searchLimit) {
            summaries.append(summary(of: user, timeline: try await users.timeline(of: user.id, limit: Self.timelineLength), for: actor))
        }
        return ConsoleSearchPage(users: summaries, next: found.count > Self.searchLimit ? summaries.last?.userID : nil)
    }

    /// The user page. Needs `users:read`; devices and passkeys are shown with `devices:read`.
    /// - Throws: 404 `user.not_found`.
    package func user(_ userID: String, by actor: ConsoleOperator) async throws -> ConsoleUserDetail {
        try await requireRead(.usersRead, by: actor)
        let user = try await existingUser(userID)
        let timeline = try await users.timeline(of: user.id, limit: Self.timelineLength)
        let holdings = try await store.holdings(userID: user.id)
        let now = runtime.now()
        let idle = TimeInterval(configuration.sessionIdleTimeout)
        let open = holdings.sessions.filter { $0.revokedAt == nil && now.timeIntervalSince($0.lastUsedAt) <= idle }
        let readsDevices = actor.may(.devicesRead)
        var payments: [Int64: Transaction] = [:]
        // Only a completed payment's challenge is read: the entry names its operation.
        for entry in timeline
        where entry.draft.event == AuditEvent.challengeCompleted.rawValue
            && entry.draft.details["operation"] == OperationKind.payment.rawValue
        {
            guard let challengeID = entry.draft.challengeID, let transaction = try await store.challenge(id: challengeID)?.transaction
            else { continue }
            payments[entry.sequence] = transaction
        }
        return ConsoleUserDetail(
            summary: summary(of: user, timeline: timeline, for: actor), roles: user.roles,
            failedAttempts: user.lockout.failedAttempts, temporaryBlocks: user.lockout.temporaryBlocks,
            restrictedUntil: user.restrictedUntil, hasPassword: user.passwordHash != nil, hasPIN: user.pinHash != nil, hasTOTP: user.sealedTOTPSeed != nil,
            devices: readsDevices ? try await devices.devices(of: user.id) : nil,
            passkeys: readsDevices ? try await passkeys.passkeys(of: user.id) : nil,
            sessions: open.sorted { $0.lastUsedAt > $1.lastUsedAt },
            partners: try await partners(in: holdings), timeline: timeline,
            payments: payments)
    }

    /// Every partner the user signed in to, newest sign-in first, with what it still holds.
    private func partners(in holdings: UserHoldings) async throws -> [ConsolePartnerAccess] {
        let sessions = accounts.openSessions(holdings.sessions)
        var partners: [String: ConsolePartnerAccess] = [:]
        for grant in holdings.authorizationGrants {
            var partner = partners[grant.clientID] ?? ConsolePartnerAccess(clientID: grant.clientID)
            partner.lastSignIn = max(partner.lastSignIn ?? grant.authTime, grant.authTime)
            partners[grant.clientID] = partner
        }
        for clientID in sessions.compactMap(\.clientID) {
            partners[clientID, default: ConsolePartnerAccess(clientID: clientID)].openSessions += 1
        }
        for consent in holdings.consents where consent.status.isOpen {
            partners[consent.clientID, default: ConsolePartnerAccess(clientID: consent.clientID)].openConsents += 1
        }
        for clientID in partners.keys {
            partners[clientID]?.name = try await store.partnerClient(id: clientID)?.name
        }
        return partners.values.sorted { ($0.lastSignIn ?? .distantPast, $0.clientID) > ($1.lastSignIn ?? .distantPast, $1.clientID) }
    }

    // MARK: Actions

    /// Lifts the hold a password reset proven with one element left, once its cooling-off is
    /// over. Needs `users:unblock`.
    package func liftRestriction(_ userID: String, by actor: ConsoleOperator) async throws {
        try await act(.usersUnblock, by: actor) {
            try await passwordResets.liftRestriction(userID: try await existingUser(userID).id)
        }
    }

    /// Lifts the user's temporary or permanent block. Needs `users:unblock`.
    package func unblock(_ userID: String, by actor: ConsoleOperator) async throws {
        try await act(.usersUnblock, by: actor) {
            try await users.unblock(userID: try await existingUser(userID).id)
        }
    }

    /// Removes one of the user's devices (a lost phone): its key signs nothing any more. Needs
    /// `devices:write`.
    /// - Throws: 404 for a device that is not this user's.
    package func removeDevice(_ deviceID: String, of userID: String, by actor: ConsoleOperator) async throws {
        try await act(.devicesWrite, by: actor) {
            _ = try await devices.setStatus(of: deviceID, to: .removed, owner: try await existingUser(userID).id)
        }
    }

    /// Removes one of the user's passkeys. Needs `devices:write`.
    package func removePasskey(_ passkeyID: String, of userID: String, by actor: ConsoleOperator) async throws {
        try await act(.devicesWrite, by: actor) {
            _ = try await passkeys.remove(passkeyID, owner: try await existingUser(userID).id)
        }
    }

    /// Removes the user's authenticator app (a lost or replaced phone). Needs `users:write`.
    /// - Throws: 404 when the user has none.
    package func removeAuthenticatorApp(of userID: String, by actor: ConsoleOperator) async throws {
        try await act(.usersWrite, by: actor) {
            try await users.removeTOTP(userID: try await existingUser(userID).id)
        }
    }

    /// Takes a partner's access to the user back: its sessions end (it is told through its
    /// back-channel logout) and the consents it waits on are refused. Needs `users:write`.
    /// - Throws: 404 `partner.access_not_found` when it holds nothing of the user's.
    package func revokePartner(_ clientID: String, of userID: String, by actor: ConsoleOperator) async throws -> PartnerAccessRevokedResponse {
        try await act(.usersWrite, by: actor) {
            try await accounts.revokePartner(clientID, of: try await existingUser(userID).id, asking: nil)
        }
    }

    /// Ends every open session of the user. Needs `users:write`.
    /// - Returns: how many ended.
    package func endSessions(of userID: String, by actor: ConsoleOperator) async throws -> Int {
        try await act(.usersWrite, by: actor) {
            try await users.endSessions(of: try await existingUser(userID).id)
        }
    }

    /// Ends one of the user's open sessions (a partner's sign-in, say). Needs `users:write`.
    package func endSession(_ sessionID: String, of userID: String, by actor: ConsoleOperator) async throws {
        try await act(.usersWrite, by: actor) {
            try await users.endSession(sessionID, of: try await existingUser(userID).id)
        }
    }

    /// Replaces the user's roles with `roles`, each one the configuration defines. Needs
    /// `users:roles`; nobody changes their own roles.
    /// - Throws: 400 `request.invalid` for a role the configuration does not define.
    package func setRoles(_ roles: [String], of userID: String, by actor: ConsoleOperator) async throws {
        try await act(.usersRoles, by: actor) {
            guard roles.allSatisfy({ configuration.roles[$0] != nil }) else {
                throw Problem.invalidRequest("roles must be roles the configuration defines")
            }
            _ = try await users.setRoles(userID: try await existingUser(userID).id, roles, byOperator: actor.userID)
        }
    }

    /// The last hour of this instance's counters, minute by minute (the live overview). Needs
    /// `risk:read`, as the risk page beside it.
    package func liveOverview(by actor: ConsoleOperator) async throws -> ActivitySnapshot {
        try await requireRead(.riskRead, by: actor)
        return metrics.history.lastHour()
    }

    /// The roles the configuration defines, for the roles form.
    package var definedRoles: [String] { configuration.roles.keys.sorted() }

    // MARK: Rules

    /// Reading needs the permission, not a fresh authentication: an operator on a call keeps
    /// their view, and their session idles out after five minutes without a request anyway.
    func requireRead(_ scope: AdminScope, by actor: ConsoleOperator) async throws {
        guard actor.may(scope) else {
            // The same refusal, recorded, as the admin API's.
            try await access.authorize(.operator(userID: actor.userID, stepUp: actor.stepUp), for: scope)
            return
        }
    }

    /// Runs `action` as the operator when they may: the permission first (a refusal is
    /// recorded), then a fresh authentication, which the console asks for.
    func act<Result: Sendable>(
        _ scope: AdminScope, by actor: ConsoleOperator, _ action: () async throws -> Result
    ) async throws -> Result {
        if actor.stepUp.refusal(for: scope, now: runtime.now()) == .tooOld { throw ConsoleStepUpNeeded() }
        try await access.authorize(.operator(userID: actor.userID, stepUp: actor.stepUp), for: scope)
        return try await AuditTrail.$actor.withValue(actor.auditActor) { try await action() }
    }

    private func existingUser(_ userID: String) async throws -> UserRecord {
        guard InputRules.isWellFormedID(userID, prefix: "usr"), let user = try await store.user(id: userID) else {
            throw Problem.userNotFound
        }
        return user
    }

    private func summary(of user: UserRecord, timeline: [AuditEntry], for actor: ConsoleOperator) -> ConsoleUserSummary {
        let completed = timeline.first { $0.draft.event == AuditEvent.challengeCompleted.rawValue }
        return ConsoleUserSummary(
            userID: user.id, email: actor.mayReveal ? user.email : ContactMask.email(user.email),
            phone: (user.phone ?? user.loginPhone).map { actor.mayReveal ? $0 : ContactMask.phone($0) },
            status: ConsoleUserStatus(user.lockout, now: runtime.now()), methods: user.enrolledMethods,
            createdAt: user.createdAt, lastAuthenticatedAt: completed?.draft.time)
    }
}
