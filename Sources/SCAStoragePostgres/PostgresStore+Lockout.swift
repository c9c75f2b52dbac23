import Foundation
import PostgresNIO
import SCAStorage

// Reserving an attempt and recording a failure read the user's counters and write them back
// in one transaction that first locks the user's row (`SELECT … FOR NO KEY UPDATE`, the lock
// an UPDATE of non-key columns takes, which leaves the foreign-key checks of devices and
// activation codes free): concurrent guesses, from any instance, are counted one after the
// other. The other operations are one conditional UPDATE each.
extension PostgresStore {
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func reserveAttempt(userID: String, policy: LockoutPolicy, now: Date) async throws -> AttemptReservation {
        try await updateLockout(userID: userID) { $0.reserveAttempt(policy: policy, now: now) }
    }

    /// - Throws: `StoreError.notFound` when there is no such user.
    package func recordFailure(userID: String, policy: LockoutPolicy, now: Date) async throws -> FailureOutcome {
        try await updateLockout(userID: userID) { $0.recordFailure(policy: policy, now: now) }
    }

    /// Locks the user's row, applies `transition` to the counters and writes them back if it
    /// changed them, in one transaction.
    private func updateLockout<Outcome: Sendable>(
        userID: String, _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> Outcome {
        try await transaction { [self] connection in
            let (outcome, changed) = try await lockedLockout(connection, userID: userID).applying(transition)
            if let changed { try await save(changed, connection, userID: userID) }
            return outcome
        }
    }

    /// Gives one reserved attempt back, never going below zero. Blocks are left alone: a block
    /// started meanwhile by another attempt has reset the counter already.
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func releaseAttempt(userID: String) async throws {
        let updated = try await rows(
            "UPDATE users SET failed_attempts = GREATEST(failed_attempts - 1, 0) WHERE id = \(userID) RETURNING id")
        if updated.isEmpty { throw StoreError.notFound }
    }

    /// Leaves a permanent lock alone: a permanently locked user is never granted an attempt,
    /// so a success here can only come from an attempt reserved before the lock.
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func recordSuccess(userID: String) async throws {
        let updated = try await rows(
            """
            UPDATE users SET failed_attempts = 0, temporary_blocks = 0, locked_until = NULL
            WHERE id = \(userID) RETURNING id
            """)
        if updated.isEmpty { throw StoreError.notFound }
    }

    /// Clears counters and blocks, permanent ones included. The last accepted TOTP step is
    /// kept, so an unblock never lets an old code be replayed.
    package func unblockUser(id: String) async throws -> Bool {
        let updated = try await rows(
            """
            UPDATE users
            SET failed_attempts = 0, temporary_blocks = 0, locked_until = NULL, permanently_locked = FALSE
            WHERE id = \(id) RETURNING id
            """)
        return !updated.isEmpty
    }

    /// The condition and the write are one statement: of racing presentations of a step,
    /// whichever instance they reach, exactly one finds the stored step still older.
    /// - Throws: `StoreError.notFound` when there is no such user.
    package func acceptTOTPStep(userID: String, step: Int64) async throws -> Bool {
        let updated = try await rows(
            """
            UPDATE users SET last_totp_step = \(step)
            WHERE id = \(userID) AND (last_totp_step IS NULL OR last_totp_step < \(step))
            RETURNING id
            """)
        if !updated.isEmpty { return true }
        guard try await !rows("SELECT 1 FROM users WHERE id = \(userID)").isEmpty else {
            throw StoreError.notFound
        }
        return false
    }

    /// The user's counters, with the row locked until the transaction ends.
    func lockedLockout(_ connection: PostgresConnection, userID: String) async throws -> LockoutState {
        let row = try await connection.rows(
            """
            SELECT failed_attempts, temporary_blocks, locked_until, permanently_locked, last_totp_step
            FROM users WHERE id = \(userID) FOR NO KEY UPDATE
            """,
            logger: logger
        ).first
        guard let row else { throw StoreError.notFound }
        return try LockoutState(row: row)
    }

    func save(_ lockout: LockoutState, _ connection: PostgresConnection, userID: String) async throws {
        _ = try await connection.rows(
            """
            UPDATE users
            SET failed_attempts = \(lockout.failedAttempts), temporary_blocks = \(lockout.temporaryBlocks),
                locked_until = \(lockout.lockedUntil?.unixSeconds), permanently_locked = \(lockout.permanentlyLocked)
            WHERE id = \(userID)
            """,
            logger: logger)
    }
}
