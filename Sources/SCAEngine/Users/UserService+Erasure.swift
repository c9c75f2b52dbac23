import Foundation
import SCACore
import SCAStorage

extension UserService {
    /// Erases the user (GDPR art. 17): their sessions end first, announced to the partners that
    /// hold them; then their row and everything that hangs off it go in one store transaction.
    /// What the law or the RTS requires to keep stays without naming them: their payments in
    /// the fraud-rate figures, their audit entries with the opaque user id, the event, time and
    /// outcome, and the keyed digest of the personal facts that are cleared.
    /// - Throws: `Problem.userNotFound`.
    package func erase(userID: String) async throws -> UserErasureSummary {
        guard InputRules.isWellFormedID(userID, prefix: "usr"), try await store.user(id: userID) != nil else {
            throw Problem.userNotFound
        }
        _ = try await store.endSessions(userID: userID, now: runtime.now())
        let stateKeys = [RiskState.keyPrefix + userID, ContactChange.keyPrefix + userID, TOTPSetup.keyPrefix + userID]
        guard let erasure = try await store.eraseUser(id: userID, stateKeys: stateKeys) else { throw Problem.userNotFound }
        let summary = UserErasureSummary(
            userId: userID, rowsDeleted: erasure.rowsDeleted, paymentsPseudonymised: erasure.paymentsPseudonymised,
            auditEntriesErased: erasure.auditEntriesErased, auditEntriesUnsealed: erasure.auditEntriesUnsealed)
        await audit.record(
            .userErased, userID: userID,
            details: [
                "rows": "\(erasure.rowsDeleted)", "payments": "\(erasure.paymentsPseudonymised)",
                "auditErased": "\(erasure.auditEntriesErased)", "auditUnsealed": "\(erasure.auditEntriesUnsealed)",
            ])
        return summary
    }
}
