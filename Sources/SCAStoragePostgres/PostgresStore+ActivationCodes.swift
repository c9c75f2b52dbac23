import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Whether a code is live, and what presenting it does, is decided by `ActivationCodeRecord`
// (ActivationCodeRecord+Registration.swift). Each operation runs in one transaction that locks
// the code's row before judging it, so concurrent presentations of a code, on any instances, are judged one
// after the other: a presentation that waited re-reads the row as the first one left it.
extension PostgresStore {
    /// Replaces a dead code with the same lookup id in the same transaction.
    /// - Throws: `StoreError.conflict("lookupID")` when a live code has the lookup id (or
    ///   another instance stores one at the same moment), or `StoreError.notFound` when there
    ///   is no user `code.userID`.
    package func createActivationCode(_ code: ActivationCodeRecord, maximumTries: Int) async throws {
        do {
            try await transaction { [self] connection in
                if let existing = try await lockedActivationCode(connection, lookupID: code.lookupID),
                    existing.isLive(now: code.createdAt, maximumTries: maximumTries)
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
    package func registerDevice(
        _ device: DeviceRecord, lookupID: String, codeHash: [UInt8], now: Date, maximumTries: Int, maximumDevices: Int
    ) async throws -> DeviceRegistration {
        do {
            return try await transaction { [self] connection in
                guard var code = try await lockedActivationCode(connection, lookupID: lookupID) else {
                    return .codeInvalid
                }
                let loaded = code
                if let refusal = code.present(codeHash: codeHash, now: now, maximumTries: maximumTries) {
                    if code != loaded { try await storePresentation(of: code, connection) }
                    return refusal
                }
                // NO KEY UPDATE: serialises registrations for this user without blocking the
                // foreign-key checks of other writes that reference the user.
                _ = try await connection.rows(
                    "SELECT 1 FROM users WHERE id = \(code.userID) FOR NO KEY UPDATE", logger: logger)
                let ownerDevices = try await connection.rows(
                    "SELECT status FROM devices WHERE user_id = \(code.userID)", logger: logger
                ).map { try Columns($0).rawValue("status", as: DeviceStatus.self) }
                let registration = code.register(
                    device, ownerDevices: ownerDevices, maximumDevices: maximumDevices, now: now)
                guard case .registered(let stored) = registration else { return registration }
                try await insert(stored, connection)
                try await storePresentation(of: code, connection)
                return registration
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // Thrown out of the transaction, which rolled back: the code stays unused.
            throw StoreError.conflict("id")
        }
    }

    /// The code with this lookup id, live or not, its row locked until the transaction ends.
    private func lockedActivationCode(
        _ connection: PostgresConnection, lookupID: String
    ) async throws -> ActivationCodeRecord? {
        try await connection.rows(
            "SELECT * FROM activation_codes WHERE lookup_id = \(lookupID) FOR UPDATE", logger: logger
        ).first.map(ActivationCodeRecord.init(row:))
    }

    /// Writes back what presenting the code changed: its wrong tries and its use.
    private func storePresentation(of code: ActivationCodeRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            UPDATE activation_codes SET failed_tries = \(code.failedTries), used_at = \(code.usedAt?.unixSeconds)
            WHERE lookup_id = \(code.lookupID)
            """,
            logger: logger)
    }
}
