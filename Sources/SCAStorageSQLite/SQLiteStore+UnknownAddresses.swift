import Foundation
import GRDB
import SCAStorage

// The counters of addresses that match no user, read and written back inside one write
// transaction like a user's, so concurrent guesses at one address are counted one after the
// other. A row appears with the first change; what to change is the caller's pure transition.
extension SQLiteStore {
    package func updateUnknownAddressLockout<Outcome: Sendable>(
        key: String, _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> Outcome {
        try await write { db in
            let (outcome, changed) = try Self.unknownAddressLockout(db, key: key).applying(transition)
            if let changed { try Self.saveUnknownAddressLockout(changed, db, key: key) }
            return outcome
        }
    }

    /// The address's counters (fresh ones when it has no row yet).
    static func unknownAddressLockout(_ db: Database, key: String) throws -> LockoutState {
        try db.cachedStatement(sql: """
            SELECT failed_attempts, temporary_blocks, locked_until, permanently_locked, last_totp_step
            FROM unknown_address_lockouts WHERE key = ?
            """
        ).fetchOne(LockoutState.self, arguments: [key]) ?? LockoutState()
    }

    static func saveUnknownAddressLockout(_ lockout: LockoutState, _ db: Database, key: String) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO unknown_address_lockouts
                    (key, failed_attempts, temporary_blocks, locked_until, permanently_locked, last_totp_step)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET
                    failed_attempts = excluded.failed_attempts, temporary_blocks = excluded.temporary_blocks,
                    locked_until = excluded.locked_until, permanently_locked = excluded.permanently_locked,
                    last_totp_step = excluded.last_totp_step
                """).execute(
            arguments: [
                key, lockout.failedAttempts, lockout.temporaryBlocks, lockout.lockedUntil?.unixSeconds,
                lockout.permanentlyLocked, lockout.lastTOTPStep,
            ]
        )
    }
}
