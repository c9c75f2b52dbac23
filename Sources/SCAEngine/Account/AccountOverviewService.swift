import Foundation
import SCACore
import SCAStorage

/// The user's own view of their account and the changes that only take power away: ending
/// their sessions, taking a partner's access back, revoking a consent. Behind the account page
/// and `sca account`, with a first-party token only: a partner's token is refused
/// (`token.delegated`) on every route, since what a user approved for a partner never includes
/// the account itself.
///
/// Reading needs a signed-in session (`login`, `account_info` or `settings_change`); the
/// changes need a `login` or `settings_change` token, as removing a device does, since each one
/// only ends something. Every change is audited; another user's ids are `not found`.
package struct AccountOverviewService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    let devices: DeviceService
    let passkeys: PasskeyService
    let recovery: RecoveryService
    let webhooks: WebhookService
    /// The user's trusted beneficiaries.
    let beneficiaries: BeneficiaryService
    /// The account page's sign-in and confirmations.
    let challenges: ChallengeService
    /// New addresses waiting for their code.
    let contactChanges: ContactChangeService
    /// The user's own changes of details, with a `settings_change` token.
    let settings: AccountService
    /// A new authenticator app waiting for its first code.
    let totpSetup: TOTPSetupService

    /// The activity lines an overview shows.
    package static let activityLength = 50
    /// The audit entries read to find them: enough that a burst of refused proofs, shown one
    /// line per challenge, does not push every sign-in out of the list.
    static let activityScan = 400

    static let readOperations: Set<OperationKind> = [.login, .accountInfo, .settingsChange]
    static let endOperations: Set<OperationKind> = [.login, .settingsChange]

    // MARK: Reading

    /// `GET /v1/me/overview`.
    /// - Throws: `Problem` 401, 403 `token.delegated` for a partner's token, `auth.forbidden`.
    package func overview(authorization: String?) async throws -> AccountOverviewResponse {
        let claims = try await tokens.authorize(authorization, for: Self.readOperations, consume: false)
        return try await overview(of: claims.sub.value, currentSession: claims.sid)
    }

    /// The overview of `userID`, whose session `currentSession` is the one asking.
    /// - Throws: `Problem.userNotFound`.
    package func overview(of userID: String, currentSession: String?) async throws -> AccountOverviewResponse {
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        let deviceRecords = try await store.devices(userID: userID)
        let passkeyRecords = try await store.passkeys(userID: userID)
        let holdings = try await store.holdings(userID: userID)
        let open = openSessions(holdings.sessions)
        let clientNames = try await names(ofClients: Set(open.compactMap(\.clientID) + holdings.consents.map(\.clientID)))

        let own = open.filter { $0.clientID == nil }.sorted { $0.lastUsedAt > $1.lastUsedAt }.map { session in
            AccountSessionResponse(
                sessionId: session.id, operation: session.operation, createdAt: session.createdAt,
                lastUsedAt: session.lastUsedAt, current: session.id == currentSession)
        }
        let trusted = try await store.riskState(key: RiskState.keyPrefix + userID, as: RiskState.self).beneficiaries

        let entries = try await store.auditEntries(userID: userID, before: nil, limit: Self.activityScan)
        var payments: [String: Transaction] = [:]
        for challengeID in AccountActivity.paymentChallenges(in: entries).prefix(Self.activityLength) {
            if let transaction = try await store.challenge(id: challengeID)?.transaction { payments[challengeID] = transaction }
        }
        var names: [String: String] = [:]
        for device in deviceRecords { names[device.id] = device.name }
        for passkey in passkeyRecords { names[passkey.id] = passkey.name }

        return AccountOverviewResponse(
            userId: user.id, email: user.email, phone: user.phone ?? user.loginPhone,
            devices: deviceRecords.filter { $0.status != .removed }.map(DeviceService.describe),
            passkeys: passkeyRecords.map(PasskeyService.describe), sessions: own,
            partners: Self.partners(open: open, grants: holdings.authorizationGrants, names: clientNames),
            consents: holdings.consents.reversed().map { consent in
                describe(consent, clientName: clientNames[consent.clientID] ?? consent.clientID, open: open)
            },
            beneficiaries: trusted.map(BeneficiaryService.describe),
            recoverySheet: try await recovery.sheetStatus(of: userID),
            activity: AccountActivity.lines(
                entries, context: AccountActivity.Context(payments: payments, names: names), limit: Self.activityLength),
            pendingContactChanges: try await contactChanges.waiting(for: userID),
            hasAuthenticatorApp: user.sealedTOTPSeed != nil, hasPIN: user.pinHash != nil)
    }

    /// Each partner with an open session once: the scopes its sign-ins were granted, how many
    /// sessions it holds, since when.
    static func partners(
        open: [SessionRecord], grants: [AuthorizationGrantRecord], names: [String: String]
    ) -> [PartnerAccessResponse] {
        let bySession = Dictionary(grants.map { ($0.sessionID, $0) }, uniquingKeysWith: { first, _ in first })
        var partners: [String: PartnerAccessResponse] = [:]
        for session in open {
            guard let clientID = session.clientID else { continue }
            let scopes = bySession[session.id]?.scopes ?? []
            if var known = partners[clientID] {
                known.scopes = Array(Set(known.scopes + scopes)).sorted()
                known.sessions += 1
                known.grantedAt = min(known.grantedAt, session.createdAt)
                known.lastUsedAt = max(known.lastUsedAt, session.lastUsedAt)
                partners[clientID] = known
            } else {
                partners[clientID] = PartnerAccessResponse(
                    clientId: clientID, clientName: names[clientID] ?? clientID, scopes: Array(Set(scopes)).sorted(),
                    sessions: 1, grantedAt: session.createdAt, lastUsedAt: session.lastUsedAt)
            }
        }
        return partners.values.sorted { $0.lastUsedAt > $1.lastUsedAt }
    }

    // MARK: Changes that take power away

    /// `DELETE /v1/me/sessions/{id}`: ends one of the user's own sessions (the caller's own
    /// signs it out). A partner's session is ended with its partner's access.
    /// - Throws: 404 `session.not_found` for a session that is not the user's own and open.
    package func endSession(_ sessionID: String, authorization: String?) async throws -> SessionsEndedResponse {
        let claims = try await tokens.authorize(authorization, for: Self.endOperations, consume: false)
        return try await endSession(sessionID, of: claims.sub.value, asking: claims.sid)
    }

    /// Ends `sessionID`, one of `userID`'s own open sessions, as asked from session `asking`.
    /// - Throws: 404 `session.not_found`.
    package func endSession(_ sessionID: String, of userID: String, asking: String) async throws -> SessionsEndedResponse {
        guard InputRules.isWellFormedID(sessionID, prefix: "ses"), let session = try await store.session(id: sessionID),
            session.userID == userID, session.clientID == nil, openSessions([session]).count == 1
        else { throw Problem.sessionNotFound }
        try await store.revokeSession(id: session.id, now: runtime.now())
        await audit.record(
            .accountSessionsEnded, userID: userID, sessionID: asking,
            details: ["sessions": "1", "which": session.id == asking ? "current" : "one", "ended": session.id])
        return SessionsEndedResponse(ended: 1)
    }

    /// `DELETE /v1/me/sessions`: ends every other session of the user's own (each device's app,
    /// another browser), keeping the caller's. Partners keep theirs: taking a partner's access
    /// back is its own act.
    package func endOtherSessions(authorization: String?) async throws -> SessionsEndedResponse {
        let claims = try await tokens.authorize(authorization, for: Self.endOperations, consume: false)
        return try await endOtherSessions(of: claims.sub.value, keeping: claims.sid)
    }

    /// Ends every open session of `userID`'s own but `kept`.
    package func endOtherSessions(of userID: String, keeping kept: String) async throws -> SessionsEndedResponse {
        let others = openSessions(try await store.holdings(userID: userID).sessions).filter { $0.clientID == nil && $0.id != kept }
        let now = runtime.now()
        for session in others { try await store.revokeSession(id: session.id, now: now) }
        await audit.record(
            .accountSessionsEnded, userID: userID, sessionID: kept, details: ["sessions": String(others.count), "which": "others"])
        return SessionsEndedResponse(ended: others.count)
    }

    /// `DELETE /v1/me/partners/{clientId}`: takes a partner's access back. Every session it
    /// holds for the user ends on every instance (it is told through its back-channel logout
    /// when it takes them), and every consent it still waits on is refused.
    /// - Throws: 404 `partner.access_not_found` when the partner holds nothing of the user's.
    package func revokePartner(_ clientID: String, authorization: String?) async throws -> PartnerAccessRevokedResponse {
        let claims = try await tokens.authorize(authorization, for: Self.endOperations, consume: false)
        return try await revokePartner(clientID, of: claims.sub.value, asking: claims.sid)
    }

    /// Takes `clientID`'s access to `userID` back, as asked from the user's session `asking`
    /// (nil for an operator, whom the audit entry names as its actor).
    /// - Throws: 404 `partner.access_not_found`.
    package func revokePartner(_ clientID: String, of userID: String, asking: String?) async throws -> PartnerAccessRevokedResponse {
        guard !clientID.isEmpty, clientID.utf8.count <= InputRules.maxIDLength else { throw Problem.partnerAccessNotFound }
        let holdings = try await store.holdings(userID: userID)
        let sessions = openSessions(holdings.sessions).filter { $0.clientID == clientID }
        let consents = holdings.consents.filter { $0.clientID == clientID && $0.status.isOpen }
        guard !sessions.isEmpty || !consents.isEmpty else { throw Problem.partnerAccessNotFound }
        let now = runtime.now()
        for session in sessions { try await store.revokeSession(id: session.id, now: now) }
        var refused = 0
        for consent in consents where try await refuse(consent) { refused += 1 }
        await audit.record(
            .accountPartnerRevoked, userID: userID, sessionID: asking,
            details: ["client": clientID, "sessions": String(sessions.count), "consents": String(refused)])
        return PartnerAccessRevokedResponse(clientId: clientID, sessionsEnded: sessions.count, consentsRefused: refused)
    }

    /// `DELETE /v1/me/consents/{id}`: an open consent is refused as if on its page; an
    /// accepted one's token stops working (its session ends), though what the partner carried
    /// out already stays done.
    /// - Throws: 404 `consent.not_found` (also another user's), 409 `consent.closed` when
    ///   nothing of it is left to revoke.
    package func revokeConsent(_ consentID: String, authorization: String?) async throws -> AccountConsentResponse {
        let claims = try await tokens.authorize(authorization, for: Self.endOperations, consume: false)
        return try await revokeConsent(consentID, of: claims.sub.value, asking: claims.sid)
    }

    /// Revokes `userID`'s consent `consentID`, as asked from session `asking`.
    /// - Throws: 404 `consent.not_found`, 409 `consent.closed`.
    package func revokeConsent(_ consentID: String, of userID: String, asking: String) async throws -> AccountConsentResponse {
        guard InputRules.isWellFormedID(consentID, prefix: "cst"), let consent = try await store.consent(id: consentID),
            consent.userID == userID
        else { throw Problem.consentNotFound }
        let holdings = try await store.holdings(userID: userID)
        let sessions = openSessions(holdings.sessions).filter {
            $0.clientID == consent.clientID && consent.challengeID != nil && $0.challengeID == consent.challengeID
        }
        var refused = false
        if consent.status.isOpen {
            refused = try await refuse(consent)
        }
        guard refused || !sessions.isEmpty else { throw Problem.consentClosed(consent.status) }
        let now = runtime.now()
        for session in sessions { try await store.revokeSession(id: session.id, now: now) }
        await audit.record(
            .accountPartnerRevoked, userID: userID, sessionID: asking,
            details: [
                "client": consent.clientID, "consent": consent.id, "sessions": String(sessions.count),
                "consents": refused ? "1" : "0",
            ])
        let after = try await store.consent(id: consent.id) ?? consent
        let names = try await names(ofClients: [consent.clientID])
        return describe(after, clientName: names[consent.clientID] ?? consent.clientID, open: [])
    }

    // MARK: Helpers

    /// Sessions that still work: not ended, not idle past the limit, and of a kind that lasts
    /// (a payment's or a settings change's token serves once and is no session to end).
    func openSessions(_ sessions: [SessionRecord]) -> [SessionRecord] {
        let now = runtime.now()
        let idle = TimeInterval(configuration.sessionIdleTimeout)
        return sessions.filter {
            $0.revokedAt == nil && now.timeIntervalSince($0.lastUsedAt) <= idle
                && ($0.clientID != nil || TokenService.isSessionOperation($0.operation))
        }
    }

    /// Moves an open consent to `CustomerRefused`, its webhook event and its audit entry in the
    /// same write, retrying on a concurrent change.
    /// - Returns: false when it closed meanwhile.
    private func refuse(_ loaded: ConsentRecord) async throws -> Bool {
        var current = loaded
        for _ in 0..<8 {
            var updated = current
            guard updated.move(to: .customerRefused, now: runtime.now()) else { return false }
            let entry = audit.prepare(
                .consentChanged, userID: updated.userID, challengeID: updated.challengeID,
                operation: updated.operation.operation,
                details: [
                    "consentId": updated.id, "clientId": updated.clientID, "from": current.status.rawValue,
                    "to": updated.status.rawValue,
                ])
            if try await store.updateConsent(
                updated, expectedVersion: current.version, enqueueing: webhooks.event(for: updated), auditing: entry.draft)
            {
                audit.committed([entry])
                return true
            }
            guard let reloaded = try await store.consent(id: loaded.id) else { return false }
            current = reloaded
        }
        throw Problem.contention
    }

    private func names(ofClients ids: Set<String>) async throws -> [String: String] {
        var names: [String: String] = [:]
        for id in ids { names[id] = try await store.partnerClient(id: id)?.name }
        return names
    }

    func describe(_ consent: ConsentRecord, clientName: String, open: [SessionRecord]) -> AccountConsentResponse {
        let tokenLives = open.contains { $0.clientID == consent.clientID && $0.challengeID == consent.challengeID }
        return AccountConsentResponse(
            consentId: consent.id, clientId: consent.clientID, clientName: clientName, operation: consent.operation,
            status: consent.status, amount: consent.transaction?.amount, currency: consent.transaction?.currency,
            payee: consent.transaction?.payee.name, beneficiary: consent.beneficiary?.name, summary: consent.summary,
            createdAt: consent.createdAt, expiresAt: consent.expiresAt,
            revocable: (consent.status.isOpen && runtime.now() < consent.expiresAt) || (consent.challengeID != nil && tokenLives))
    }
}
