import Foundation
import PostgresNIO
import SCAStorage

// The counters of addresses that match no user, read with the row locked and written back in
// one transaction like a user's, so concurrent guesses at one address, from any instance, are
// counted one after the other. A missing row is created first (racing creations agree on one
// row), then locked; what to change is the caller's pure transition.
extension PostgresStore {
    package func updateUnknownAddressLockout<Outcome: Sendable>(
        key: String, _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> Outcome {
        try await transaction { [self] connection in
            let (outcome, changed) = try await lockedUnknownAddressLockout(connection, key: key).applying(transition)
            if let changed { try await saveUnknownAddressLockout(changed, connection, key: key) }
            return outcome
        }
    }

    /// The address's counters with its row locked until the transaction ends (created first
    /// when missing: racing creations agree on one row).
    func lockedUnknownAddressLockout(_ connection: PostgresConnection, key: String) async throws -> LockoutState {
        var row = try await lockedUnknownAddress(connection, key: key)
        if row == nil {
            _ = try await connection.rows(
                "INSERT INTO unknown_address_lockouts (key) VALUES (\(key)) ON CONFLICT (key) DO NOTHING",
                logger: logger)
            row = try await lockedUnknownAddress(connection, key: key)
        }
        guard let row else { throw StoreError.notFound }
        return try LockoutState(columns: Columns(row))
    }

    func saveUnknownAddressLockout(_ lockout: LockoutState, _ connection: PostgresConnection, key: String) async throws {
        _ = try await connection.rows(
            """
            UPDATE unknown_address_lockouts
            SET failed_attempts = \(lockout.failedAttempts), temporary_blocks = \(lockout.temporaryBlocks),
                locked_until = \(lockout.lockedUntil?.unixSeconds), permanently_locked = \(lockout.permanentlyLocked),
                last_totp_step = \(lockout.lastTOTPStep)
            WHERE key = \(key)
            """,
            logger: logger)
    }

    private func lockedUnknownAddress(_ connection: PostgresConnection, key: String) async throws -> PostgresRow? {
        try await connection.rows(
            """
            SELECT failed_attempts, temporary_blocks, locked_until, permanently_locked, last_totp_step
            FROM unknown_address_lockouts WHERE key = \(key) FOR UPDATE
            """,
            logger: logger
        ).first
    }
}
