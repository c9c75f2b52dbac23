import Foundation
import GRDB
import SCACore
import SCAStorage

// One proof, one write transaction: the lockout plan, the one-time factor's use, the
// challenge's compare-and-set (with a device signature's burn), the device's outcome, the
// risk records a completion changes, the audit entries and the consent the proof decides
// commit together or not at all.
// GRDB's single writer (`BEGIN IMMEDIATE` across processes) runs proofs, and the audit
// appends inside them, one after another, so counters are counted in turn and the chain
// never forks.
extension SQLiteStore {
    package func commitProof(_ commit: ProofCommit) async throws -> ProofCommitResult {
        // Encoded before entering the write transaction, so the writer is held no longer than needed.
        let columns = try commit.challenge.map(ChallengeColumns.arguments)
        do {
            return try await write { db in
                var step: LockoutStep?
                if let change = commit.lockout {
                    let applied = try Self.applyLockout(change, db)
                    if case .refused(let reservation) = applied { throw ProofCommitRefusal(.refused(reservation)) }
                    step = applied
                }
                if let use = commit.factor {
                    guard try Self.apply(use, db) else { throw ProofCommitRefusal(.factorUsed) }
                }
                if let challenge = commit.challenge, let columns {
                    guard try Self.updateChallenge(id: challenge.id, columns: columns, expectedVersion: commit.expectedVersion, db) else {
                        throw ProofCommitRefusal(.versionConflict)
                    }
                }
                var device: DeviceRecord?
                switch commit.device {
                case .success(let id, let now)?:
                    try Self.recordDeviceSuccess(id: id, now: now, db)
                case .failure(let id, let maximumFailures)?:
                    device = try Self.recordDeviceFailure(id: id, maximumFailures: maximumFailures, db)
                case nil:
                    break
                }
                if let opening = commit.session {
                    try Self.createSession(opening.session, refreshToken: opening.refreshToken, db)
                }
                if let completion = commit.risk { try Self.record(completion, db) }
                var entries = try commit.audit.map { try Self.appendAuditEntry($0, db) }
                var consentStored = false
                if let change = commit.consent {
                    consentStored = try Self.storeConsent(change.consent, expectedVersion: change.expectedVersion, in: db)
                    try Self.enqueue(change.event, statusStored: consentStored, in: db)
                    if consentStored { entries.append(try Self.appendAuditEntry(change.audit, db)) }
                }
                return .committed(lockout: step, device: device, audit: entries, consentStored: consentStored)
            }
        } catch let refusal as ProofCommitRefusal {
            return refusal.result
        }
    }

    /// One read transaction: the three rows as of one moment.
    package func proofContext(challengeID: String) async throws -> ProofContext? {
        try await read { db in
            guard let challenge = try db.cachedStatement(sql: "SELECT * FROM challenges WHERE id = ?").fetchOne(ChallengeRecord.self, arguments: [challengeID])
            else { return nil }
            let user = try challenge.userID.flatMap { id in
                try db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?").fetchOne(UserRecord.self, arguments: [id])
            }
            let device = try challenge.deviceID.flatMap { try Self.device(db, id: $0) }
            return ProofContext(challenge: challenge, user: user, device: device)
        }
    }

    /// Uses the factor if it is still unused (a compare-and-set in one statement).
    /// - Returns: false when it was used (or replaced) since it was read.
    private static func apply(_ use: FactorUse, _ db: Database) throws -> Bool {
        switch use {
        case .deliveredCode(let challengeID, let method, let codeHash, let now):
            return try useCode(challengeID: challengeID, method: method, codeHash: codeHash, now: now, db)
        case .totpStep(let userID, let step):
            // The step is stored only if newer: every older step is burnt with it.
            try db.cachedStatement(
                sql: "UPDATE users SET last_totp_step = ? WHERE id = ? AND (last_totp_step IS NULL OR last_totp_step < ?)"
            ).execute(arguments: [step, userID, step])
            return db.changesCount == 1
        }
    }

    /// Reads the subject's counters, applies the plan and writes them back if it changed them.
    private static func applyLockout(_ change: LockoutChange, _ db: Database) throws -> LockoutStep {
        switch change.subject {
        case .user(let id):
            let (step, changed) = try lockout(db, userID: id).applying { $0.apply(change.plan) }
            if let changed { try save(changed, db, userID: id) }
            return step
        case .unknownAddress(let key):
            let (step, changed) = try unknownAddressLockout(db, key: key).applying { $0.apply(change.plan) }
            if let changed { try saveUnknownAddressLockout(changed, db, key: key) }
            return step
        }
    }
}
