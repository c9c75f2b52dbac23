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
    package func createActivationCode(_ code: ActivationCodeRecord, maximumTries: Int) async throws {
        try await write { db in
            if let existing = try Self.activationCode(db, lookupID: code.lookupID),
                existing.isLive(now: code.createdAt, maximumTries: maximumTries)
            {
                throw StoreError.conflict("lookupID")
            }
            try db.cachedStatement(sql: "DELETE FROM activation_codes WHERE lookup_id = ?").execute(arguments: [code.lookupID])
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO activation_codes (
                            lookup_id, code_hash, user_id, created_at, expires_at, failed_tries, used_at
                        ) VALUES (?, ?, ?, ?, ?, ?, ?)
                        """).execute(
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
    package func registerDevice(
        _ device: DeviceRecord, lookupID: String, codeHash: [UInt8], now: Date, maximumTries: Int, maximumDevices: Int
    ) async throws -> DeviceRegistration {
        try await write { db in
            guard var code = try Self.activationCode(db, lookupID: lookupID) else { return .codeInvalid }
            let loaded = code
            if let refusal = code.present(codeHash: codeHash, now: now, maximumTries: maximumTries) {
                if code != loaded { try Self.storePresentation(of: code, db) }
                return refusal
            }
            let ownerDevices = try db.cachedStatement(sql: "SELECT status FROM devices WHERE user_id = ?").fetchAll(
                arguments: [code.userID]
            ) { try $0.rawValue("status", as: DeviceStatus.self) }
            let registration = code.register(
                device, ownerDevices: ownerDevices, maximumDevices: maximumDevices, now: now)
            guard case .registered(let stored) = registration else { return registration }
            do {
                try Self.insert(stored, db)
            } catch let error as DatabaseError where error.isUniquenessViolation {
                // Thrown out of the transaction, which rolls back: the code stays unused.
                throw StoreError.conflict("id")
            }
            try Self.storePresentation(of: code, db)
            return registration
        }
    }

    private static func activationCode(_ db: Database, lookupID: String) throws -> ActivationCodeRecord? {
        try db.cachedStatement(sql: "SELECT * FROM activation_codes WHERE lookup_id = ?").fetchOne(ActivationCodeRecord.self, arguments: [lookupID])
    }

    /// Writes back what presenting the code changed: its wrong tries and its use.
    private static func storePresentation(of code: ActivationCodeRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: "UPDATE activation_codes SET failed_tries = ?, used_at = ? WHERE lookup_id = ?").execute(
            arguments: [code.failedTries, code.usedAt?.unixSeconds, code.lookupID]
        )
    }
}
