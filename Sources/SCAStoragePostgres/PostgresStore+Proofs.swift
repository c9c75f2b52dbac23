import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// One proof, one transaction: the lockout plan, the one-time factor's use, the challenge's
// compare-and-set (with a device signature's burn), the device's outcome and the audit entries
// commit together or not at all. Locks are taken in the order every other transaction takes
// them (the subject's row, then a used factor's row (the user's for a TOTP step, so the
// subject's again; the code's, which a code's issue also takes before the challenge's), the
// challenge's, the device's, then the audit advisory lock last), so proofs from any instance
// neither deadlock with each other nor with single operations, and the audit lock is held only
// for the appends at the end.
//
// Most proofs take one round trip instead (PostgresStore+ProofFold.swift): the same statements
// in the same order, run by the database function `sca_commit_proof`. This transaction is the
// path for what that one leaves out (a device's failure, an unknown address's counters, a
// consent the proof decides), and for a lockout whose counters changed under it.
extension PostgresStore {
    package func commitProof(_ commit: ProofCommit) async throws -> ProofCommitResult {
        let result: ProofCommitResult
        if let folded = try await foldedCommit(commit) {
            result = folded
        } else {
            result = try await lockedCommit(commit)
        }
        if case .committed = result, let completion = commit.risk { await record(completion) }
        return result
    }

    /// A completion's risk records, right after the proof that completed the challenge
    /// committed, in a transaction of their own: the proof is one statement, which keeps the
    /// risk engine's JSON state out. The proof stands whatever happens here, so a failure is
    /// logged, not thrown; it only means more SCA later.
    private func record(_ completion: RiskCompletion) async {
        do {
            switch completion {
            case .paymentAuthorised(let challengeID, _, let at):
                _ = try await authoriseRiskPayment(challengeID: challengeID, at: at, updating: completion.stateKey, as: RiskState.self) {
                    completion.apply(to: &$0, payment: $1)
                }
            case .accountInfoAuthenticated:
                try await updateRiskState(key: completion.stateKey, as: RiskState.self) { completion.apply(to: &$0, payment: nil) }
            }
        } catch {
            logger.error("risk records not written after SCA", metadata: ["error": "\(String(describing: type(of: error)))"])
        }
    }

    /// The proof as one transaction of single statements, the lockout counters read under
    /// their row's lock first.
    func lockedCommit(_ commit: ProofCommit) async throws -> ProofCommitResult {
        let columns = try commit.challenge.map(ChallengeColumns.init)
        do {
            return try await transaction { [self] connection in
                var step: LockoutStep?
                if let change = commit.lockout {
                    let applied = try await applyLockout(change, connection)
                    if case .refused(let reservation) = applied { throw ProofCommitRefusal(.refused(reservation)) }
                    step = applied
                }
                if let use = commit.factor {
                    guard try await apply(use, connection) else { throw ProofCommitRefusal(.factorUsed) }
                }
                if let challenge = commit.challenge, let columns {
                    guard try await updateChallenge(challenge, columns: columns, expectedVersion: commit.expectedVersion, connection) else {
                        throw ProofCommitRefusal(.versionConflict)
                    }
                }
                var device: DeviceRecord?
                switch commit.device {
                case .success(let id, let now)?:
                    try await recordDeviceSuccess(id: id, now: now, connection)
                case .failure(let id, let maximumFailures)?:
                    device = try await recordDeviceFailure(id: id, maximumFailures: maximumFailures, connection)
                case nil:
                    break
                }
                if let opening = commit.session {
                    try await createSession(opening.session, refreshToken: opening.refreshToken, connection)
                }
                // The consent's row and its event before the audit lock, which is taken last.
                var consentStored = false
                if let change = commit.consent {
                    let update = try Self.consentUpdate(change.consent, expectedVersion: change.expectedVersion)
                    consentStored = try await connection.rows(update, logger: logger).count == 1
                    try await enqueue(change.event, statusStored: consentStored, connection)
                }
                var drafts = commit.audit
                if consentStored, let change = commit.consent { drafts.append(change.audit) }
                let entries = try await appendAuditEntries(drafts, connection)
                return .committed(lockout: step, device: device, audit: entries, consentStored: consentStored)
            }
        } catch let refusal as ProofCommitRefusal {
            return refusal.result
        }
    }

    /// The challenge, its user and its device in one statement: outer joins on the
    /// challenge's row, so one round trip and one snapshot.
    package func proofContext(challengeID: String) async throws -> ProofContext? {
        let separator = Columns.partSeparator
        let query: PostgresQuery = """
            SELECT c.*, NULL AS \(unescaped: separator), u.*, NULL AS \(unescaped: separator), d.*
            FROM challenges c LEFT JOIN users u ON u.id = c.user_id LEFT JOIN devices d ON d.id = c.device_id
            WHERE c.id = \(challengeID)
            """
        guard let row = try await rows(query).first else { return nil }
        let parts = Columns.parts(of: row)
        guard parts.count == 3 else { throw PostgresStoreError(reason: "the proof context has \(parts.count) parts") }
        return ProofContext(
            challenge: try ChallengeRecord(columns: parts[0]), user: try UserRecord(part: parts[1]),
            device: try DeviceRecord(part: parts[2]))
    }

    /// Uses the factor if it is still unused (a compare-and-set in one statement, which waits
    /// for a racing transaction on the same row and then sees its outcome).
    /// - Returns: false when it was used (or replaced) since it was read.
    private func apply(_ use: FactorUse, _ connection: PostgresConnection) async throws -> Bool {
        switch use {
        case .deliveredCode(let challengeID, let method, let codeHash, let now):
            return try await useCode(challengeID: challengeID, method: method, codeHash: codeHash, now: now, connection)
        case .totpStep(let userID, let step):
            // The step is stored only if newer: every older step is burnt with it.
            let updated = try await connection.rows(
                """
                UPDATE users SET last_totp_step = \(step)
                WHERE id = \(userID) AND (last_totp_step IS NULL OR last_totp_step < \(step))
                RETURNING id
                """,
                logger: logger)
            return !updated.isEmpty
        }
    }

    /// Locks the subject's counters, applies the plan and writes them back if it changed them.
    private func applyLockout(_ change: LockoutChange, _ connection: PostgresConnection) async throws -> LockoutStep {
        switch change.subject {
        case .user(let id):
            let (step, changed) = try await lockedLockout(connection, userID: id).applying { $0.apply(change.plan) }
            if let changed { try await save(changed, connection, userID: id) }
            return step
        case .unknownAddress(let key):
            let (step, changed) = try await lockedUnknownAddressLockout(connection, key: key).applying { $0.apply(change.plan) }
            if let changed { try await saveUnknownAddressLockout(changed, connection, key: key) }
            return step
        }
    }
}
