import Foundation
import PostgresNIO
import SCAStorage

// The counters of addresses that match no user, read with the row locked and written back in
// one transaction like a user's, so concurrent guesses at one address, from any instance, are
// counted one after the other. A missing row is created first (racing creations agree on one
// row), then locked; what to change is the caller's pure transition.
extension PostgresStore {
    public func updateUnknownAddressLockout<Outcome: Sendable>(
        key: String, _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> Outcome {
        try await transaction { [self] connection in
            var row = try await lockedUnknownAddress(connection, key: key)
            if row == nil {
                _ = try await connection.rows(
                    "INSERT INTO unknown_address_lockouts (key) VALUES (\(key)) ON CONFLICT (key) DO NOTHING",
                    logger: logger)
                row = try await lockedUnknownAddress(connection, key: key)
            }
            guard let row else { throw StoreError.notFound }
            var lockout = try LockoutState(columns: Columns(row))
            let before = lockout
            let outcome = transition(&lockout)
            if lockout != before {
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
            return outcome
        }
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
