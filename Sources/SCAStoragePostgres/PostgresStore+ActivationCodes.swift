import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// A code is live while it is unused, unexpired (expiry is exclusive) and has fewer than
// `maximumTries` wrong tries. Each operation runs in one transaction that locks the code's row
// before judging it, so concurrent presentations of a code, on any instances, are judged one
// after the other: a presentation that waited re-reads the row as the first one left it.
extension PostgresStore {
    /// Replaces a dead code with the same lookup id in the same transaction.
    /// - Throws: `StoreError.conflict("lookupID")` when a live code has the lookup id (or
    ///   another instance stores one at the same moment), or `StoreError.notFound` when there
    ///   is no user `code.userID`.
    public func createActivationCode(_ code: ActivationCodeRecord, maximumTries: Int) async throws {
        do {
            try await transaction { [self] connection in
                if try await liveActivationCode(
                    connection, lookupID: code.lookupID, now: code.createdAt, maximumTries: maximumTries) != nil
                {
                    throw StoreError.conflict("lookupID")
                }
                _ = try await connection.rows(
                    "DELETE FROM activation_codes WHERE lookup_id = \(code.lookupID)", logger: logger)
                _ = try await connection.rows(
                    """
                    INSERT INTO activation_codes (
                        lookup_id, code_hash, user_id, created_at, expires_at, failed_tries, used_at
                    ) VALUES (
                        \(code.lookupID), \(bytea(code.codeHash)), \(code.userID), \(code.createdAt.unixSeconds),
                        \(code.expiresAt.unixSeconds), \(code.failedTries), \(code.usedAt?.unixSeconds)
                    )
                    """,
                    logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // Another instance stored a code with this lookup id between our check and insert.
            throw StoreError.conflict("lookupID")
        } catch let error as PSQLError where error.isForeignKeyViolation {
            throw StoreError.notFound
        }
    }

    /// Of several registrations with the same right code, exactly one stores its device. The
    /// device limit is checked only for a right code, with the owner's row locked so that two
    /// codes of one user used at once cannot both pass a limit that has room for one; a
    /// refusal leaves the code as it was.
    /// - Throws: `StoreError.conflict("id")` when a device with this id exists; the code
    ///   is then left unused.
    public func registerDevice(
        _ device: DeviceRecord, lookupID: String, codeHash: [UInt8], now: Date, maximumTries: Int, maximumDevices: Int
    ) async throws -> DeviceRegistration {
        do {
            return try await transaction { [self] connection in
                guard
                    let code = try await liveActivationCode(
                        connection, lookupID: lookupID, now: now, maximumTries: maximumTries)
                else {
                    return .codeInvalid
                }
                guard ConstantTime.equals(code.codeHash, codeHash) else {
                    _ = try await connection.rows(
                        "UPDATE activation_codes SET failed_tries = failed_tries + 1 WHERE lookup_id = \(lookupID)",
                        logger: logger)
                    return .codeWrong(remaining: max(0, maximumTries - (code.failedTries + 1)))
                }
                // NO KEY UPDATE: serialises registrations for this user without blocking the
                // foreign-key checks of other writes that reference the user.
                _ = try await connection.rows(
                    "SELECT 1 FROM users WHERE id = \(code.userID) FOR NO KEY UPDATE", logger: logger)
                let counted = try await connection.rows(
                    """
                    SELECT COUNT(*) AS devices FROM devices
                    WHERE user_id = \(code.userID) AND status <> \(DeviceStatus.removed.rawValue)
                    """,
                    logger: logger
                ).first
                let devices = try counted.map { try Columns($0).value("devices", as: Int.self) } ?? 0
                if devices >= maximumDevices {
                    return .deviceLimitReached
                }
                var stored = device
                stored.userID = code.userID
                try await insert(stored, connection)
                _ = try await connection.rows(
                    "UPDATE activation_codes SET used_at = \(now.unixSeconds) WHERE lookup_id = \(lookupID)",
                    logger: logger)
                return .registered(stored)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // Thrown out of the transaction, which rolled back: the code stays unused.
            throw StoreError.conflict("id")
        }
    }

    /// The live code with this lookup id, its row locked until the transaction ends.
    private func liveActivationCode(
        _ connection: PostgresConnection, lookupID: String, now: Date, maximumTries: Int
    ) async throws -> ActivationCodeRecord? {
        try await connection.rows(
            """
            SELECT * FROM activation_codes
            WHERE lookup_id = \(lookupID) AND used_at IS NULL AND expires_at > \(now.unixSeconds)
                AND failed_tries < \(maximumTries)
            FOR UPDATE
            """,
            logger: logger
        ).first.map(ActivationCodeRecord.init(row:))
    }
}
