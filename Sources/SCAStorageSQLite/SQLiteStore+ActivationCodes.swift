import Foundation
import GRDB
import SCACore
import SCAStorage

// A code is live while it is unused, unexpired (expiry is exclusive) and has fewer than
// `maximumTries` wrong tries. Each operation reads the code and writes the outcome inside one
// write transaction, so concurrent presentations of a code are judged one after the other.
extension SQLiteStore {
    /// Replaces a dead code with the same lookup id in the same transaction.
    /// - Throws: `StoreError.conflict("lookupID")` when a live code has the lookup id, or
    ///   `StoreError.notFound` when there is no user `code.userID`.
    public func createActivationCode(_ code: ActivationCodeRecord, maximumTries: Int) async throws {
        try await writer.write { db in
            if try Self.liveActivationCode(db, lookupID: code.lookupID, now: code.createdAt, maximumTries: maximumTries)
                != nil
            {
                throw StoreError.conflict("lookupID")
            }
            try db.execute(sql: "DELETE FROM activation_codes WHERE lookup_id = ?", arguments: [code.lookupID])
            do {
                try db.execute(
                    sql: """
                        INSERT INTO activation_codes (
                            lookup_id, code_hash, user_id, created_at, expires_at, failed_tries, used_at
                        ) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        code.lookupID, Data(code.codeHash), code.userID, code.createdAt.unixSeconds,
                        code.expiresAt.unixSeconds, code.failedTries, code.usedAt?.unixSeconds,
                    ]
                )
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("lookupID")
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.notFound
            }
        }
    }

    /// Of several registrations with the same right code, exactly one stores its device.
    /// The device limit is checked only for a right code, and leaves the code as it was.
    /// - Throws: `StoreError.conflict("id")` when a device with this id exists; the code
    ///   is then left unused.
    public func registerDevice(
        _ device: DeviceRecord, lookupID: String, codeHash: [UInt8], now: Date, maximumTries: Int, maximumDevices: Int
    ) async throws -> DeviceRegistration {
        try await writer.write { db in
            guard let code = try Self.liveActivationCode(db, lookupID: lookupID, now: now, maximumTries: maximumTries)
            else {
                return .codeInvalid
            }
            guard ConstantTime.equals(code.codeHash, codeHash) else {
                try db.execute(
                    sql: "UPDATE activation_codes SET failed_tries = failed_tries + 1 WHERE lookup_id = ?",
                    arguments: [lookupID]
                )
                return .codeWrong(remaining: max(0, maximumTries - (code.failedTries + 1)))
            }
            let devices = try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM devices WHERE user_id = ? AND status <> ?",
                arguments: [code.userID, DeviceStatus.removed.rawValue]
            ) ?? 0
            if devices >= maximumDevices {
                return .deviceLimitReached
            }
            var stored = device
            stored.userID = code.userID
            do {
                try Self.insert(stored, db)
            } catch let error as DatabaseError where error.isUniquenessViolation {
                // Thrown out of the transaction, which rolls back: the code stays unused.
                throw StoreError.conflict("id")
            }
            try db.execute(
                sql: "UPDATE activation_codes SET used_at = ? WHERE lookup_id = ?",
                arguments: [now.unixSeconds, lookupID]
            )
            return .registered(stored)
        }
    }

    private static func liveActivationCode(
        _ db: Database, lookupID: String, now: Date, maximumTries: Int
    ) throws -> ActivationCodeRecord? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT * FROM activation_codes
                WHERE lookup_id = ? AND used_at IS NULL AND expires_at > ? AND failed_tries < ?
                """,
            arguments: [lookupID, now.unixSeconds, maximumTries]
        )
        .map(ActivationCodeRecord.init(row:))
    }
}
