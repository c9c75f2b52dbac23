import Foundation
import SCACore
import SCAStorage

extension UserService {
    /// Audit entries read per page while looking for a user's.
    static let exportPageSize = 1_000

    /// Everything stored about the user, without a secret (``UserDataExport``), and the export
    /// recorded in the trail. The user's audit entries are found by reading the chain through,
    /// a page at a time: an export is rare, and the chain keeps no index by user.
    /// - Throws: `Problem.userNotFound`.
    package func export(userID: String) async throws -> UserDataExport {
        guard InputRules.isWellFormedID(userID, prefix: "usr"), let user = try await store.user(id: userID) else {
            throw Problem.userNotFound
        }
        let holdings = try await store.holdings(userID: user.id)
        // The user's entries through the trail's index of users, newest first, then in chain order.
        var newestFirst: [AuditEntry] = []
        var before: Int64?
        while true {
            let page = try await store.auditEntries(userID: user.id, before: before, limit: Self.exportPageSize)
            newestFirst += page
            guard let last = page.last, page.count == Self.exportPageSize else { break }
            before = last.sequence
        }
        let events = newestFirst.reversed().map(\.exportJSON)
        let export = UserDataExport(
            exportedAt: runtime.now(), user: try await describe(user),
            profile: ExportedProfile(
                name: user.profile.name, locale: user.profile.locale, zoneinfo: user.profile.zoneinfo,
                attributes: user.profile.attributes),
            passkeys: try await store.passkeys(userID: user.id).map(PasskeyService.describe),
            sessions: holdings.sessions.map {
                ExportedSession(
                    sessionId: $0.id, operation: $0.operation, clientId: $0.clientID, createdAt: $0.createdAt,
                    lastUsedAt: $0.lastUsedAt, revokedAt: $0.revokedAt, keyBound: $0.keyThumbprint != nil)
            },
            partnerSignIns: holdings.authorizationGrants.map {
                ExportedSignIn(
                    clientId: $0.clientID, scopes: $0.scopes, signedInAt: $0.authTime, redirectUri: $0.redirectURI,
                    redeemedAt: $0.redeemedAt)
            },
            consents: holdings.consents.map {
                ExportedConsent(
                    consentId: $0.id, clientId: $0.clientID, operation: $0.operation, status: $0.status, summary: $0.summary,
                    transaction: $0.transaction, beneficiary: $0.beneficiary, createdAt: $0.createdAt, updatedAt: $0.updatedAt)
            },
            operations: holdings.operations.map {
                ExportedOperation(
                    operationId: $0.id, clientId: $0.clientID, deviceId: $0.deviceID, operation: $0.operation, status: $0.status,
                    transaction: $0.transaction, bindingMessage: $0.bindingMessage, createdAt: $0.createdAt,
                    finishedAt: $0.finishedAt)
            },
            payments: try await store.riskPayments(userID: user.id, since: .distantPast).reversed().map {
                ExportedPayment(
                    amount: $0.amount, currency: $0.currency, iban: $0.iban, createdAt: $0.createdAt,
                    authorisedAt: $0.authorisedAt, clientAddress: $0.clientAddress, deviceId: $0.deviceID)
            },
            auditEvents: events,
            recoverySheet: try await store.recoverySheet(userID: user.id).map { RecoveryService.describe($0, now: runtime.now()) })
        await audit.record(.adminUserExported, userID: user.id)
        return export
    }
}
