import Foundation
import GRDB
import SCAStorage

// Each operation reads the user's counters and writes them back inside one write
// transaction, so concurrent guesses are counted one after the other.
extension SQLiteStore {
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func reserveAttempt(userID: String, policy: LockoutPolicy, now: Date) async throws -> AttemptReservation {
        try await updateLockout(userID: userID) { $0.reserveAttempt(policy: policy, now: now) }
    }

    /// - Throws: `StoreError.notFound` when there is no such user.
    package func recordFailure(userID: String, policy: LockoutPolicy, now: Date) async throws -> FailureOutcome {
        try await updateLockout(userID: userID) { $0.recordFailure(policy: policy, now: now) }
    }

    /// Applies `transition` to the user's counters and writes them back if it changed them,
    /// in one write transaction.
    private func updateLockout<Outcome: Sendable>(
        userID: String, _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> Outcome {
        try await write { db in
            let (outcome, changed) = try Self.lockout(db, userID: userID).applying(transition)
            if let changed { try Self.save(changed, db, userID: userID) }
            return outcome
        }
    }

    /// Gives one reserved attempt back, never going below zero. Blocks are left alone: a block
    /// started meanwhile by another attempt has reset the counter already.
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func releaseAttempt(userID: String) async throws {
        try await write { db in
            try db.cachedStatement(
                sql: "UPDATE users SET failed_attempts = MAX(failed_attempts - 1, 0) WHERE id = ?").execute(
                arguments: [userID]
            )
            if db.changesCount == 0 { throw StoreError.notFound }
        }
    }

    /// Leaves a permanent lock alone: a permanently locked user is never granted an attempt,
    /// so a success here can only come from an attempt reserved before the lock.
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func recordSuccess(userID: String) async throws {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE users SET failed_attempts = 0, temporary_blocks = 0, locked_until = NULL
                    WHERE id = ?
                    """).execute(
                arguments: [userID]
            )
            if db.changesCount == 0 { throw StoreError.notFound }
        }
    }

    /// Clears counters and blocks, permanent ones included. The last accepted TOTP step is
    /// kept, so an unblock never lets an old code be replayed.
    package func unblockUser(id: String) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE users
                    SET failed_attempts = 0, temporary_blocks = 0, locked_until = NULL, permanently_locked = 0
                    WHERE id = ?
                    """).execute(
                arguments: [id]
            )
            return db.changesCount > 0
        }
    }

    /// - Throws: `StoreError.notFound` when there is no such user.
    package func acceptTOTPStep(userID: String, step: Int64) async throws -> Bool {
        try await write { db in
            // The condition and the write are one statement: a step is burnt exactly once.
            try db.cachedStatement(
                sql: """
                    UPDATE users SET last_totp_step = ?
                    WHERE id = ? AND (last_totp_step IS NULL OR last_totp_step < ?)
                    """).execute(
                arguments: [step, userID, step]
            )
            if db.changesCount > 0 { return true }
            guard try db.exists("SELECT 1 FROM users WHERE id = ?", arguments: [userID]) else {
                throw StoreError.notFound
            }
            return false
        }
    }

    static func lockout(_ db: Database, userID: String) throws -> LockoutState {
        let lockout = try db.cachedStatement(sql: """
            SELECT failed_attempts, temporary_blocks, locked_until, permanently_locked, last_totp_step
            FROM users WHERE id = ?
            """
        ).fetchOne(LockoutState.self, arguments: [userID])
        guard let lockout else { throw StoreError.notFound }
        return lockout
    }

    static func save(_ lockout: LockoutState, _ db: Database, userID: String) throws {
        try db.cachedStatement(
            sql: """
                UPDATE users
                SET failed_attempts = ?, temporary_blocks = ?, locked_until = ?, permanently_locked = ?
                WHERE id = ?
                """).execute(
            arguments: [
                lockout.failedAttempts, lockout.temporaryBlocks, lockout.lockedUntil?.unixSeconds,
                lockout.permanentlyLocked, userID,
            ]
        )
    }
}
