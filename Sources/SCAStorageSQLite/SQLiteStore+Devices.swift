import Foundation
import GRDB
import SCACore
import SCAStorage

// Devices are stored by `registerDevice` (SQLiteStore+ActivationCodes.swift). A status change
// and the counting of a failure are each one write transaction, so concurrent signatures are
// counted one after the other.
extension SQLiteStore {
    package func device(id: String) async throws -> DeviceRecord? {
        try await read { db in
            try Self.device(db, id: id)
        }
    }

    /// Oldest first; devices created at the same instant by id.
    package func devices(userID: String) async throws -> [DeviceRecord] {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM devices WHERE user_id = ? ORDER BY created_at, id")
                .fetchAll(DeviceRecord.self, arguments: [userID])
        }
    }

    /// Applies `DeviceRecord.setStatus`: a removed device is returned unchanged.
    @discardableResult
    package func setDeviceStatus(id: String, to status: DeviceStatus) async throws -> DeviceRecord? {
        try await write { db in
            guard var device = try Self.device(db, id: id) else { return nil }
            device.setStatus(status)
            try db.cachedStatement(
                sql: "UPDATE devices SET status = ?, fail_count = ? WHERE id = ?").execute(
                arguments: [device.status.rawValue, device.failCount, id]
            )
            return device
        }
    }

    package func renameDevice(id: String, to name: String) async throws -> DeviceRecord? {
        try await write { db in
            guard var device = try Self.device(db, id: id) else { return nil }
            device.name = name
            try db.cachedStatement(sql: "UPDATE devices SET name = ? WHERE id = ?").execute(arguments: [name, id])
            return device
        }
    }

    /// Applies `DeviceRecord.recordFailure`.
    package func recordDeviceFailure(id: String, maximumFailures: Int) async throws -> DeviceRecord? {
        try await write { db in try Self.recordDeviceFailure(id: id, maximumFailures: maximumFailures, db) }
    }

    static func recordDeviceFailure(id: String, maximumFailures: Int, _ db: Database) throws -> DeviceRecord? {
        guard var device = try device(db, id: id) else { return nil }
        device.recordFailure(maximumFailures: maximumFailures)
        try db.cachedStatement(
            sql: "UPDATE devices SET status = ?, fail_count = ? WHERE id = ?").execute(
            arguments: [device.status.rawValue, device.failCount, id]
        )
        return device
    }

    /// Leaves the status alone: a signature verified before a block does not lift it.
    /// - Throws: `StoreError.notFound` when there is no such device.
    package func recordDeviceSuccess(id: String, now: Date) async throws {
        try await write { db in try Self.recordDeviceSuccess(id: id, now: now, db) }
    }

    static func recordDeviceSuccess(id: String, now: Date, _ db: Database) throws {
        try db.cachedStatement(
            sql: "UPDATE devices SET fail_count = 0, last_used_at = ? WHERE id = ?").execute(
            arguments: [now.unixSeconds, id]
        )
        if db.changesCount == 0 { throw StoreError.notFound }
    }

    /// Remembers the hash until `expiresAt`. A hash past its expiry is accepted again (and
    /// forgotten by the periodic ``forgetUsedSignatures(expiredBefore:)``): the caller must bind
    /// each signature to something that itself expires no later than `expiresAt` (the challenge
    /// it signs), so that a replay after that is refused before its hash is looked up.
    package func markSignatureUsed(_ hash: [UInt8], expiresAt: Date, now: Date) async throws -> Bool {
        try await write { db in try Self.markSignatureUsed(hash, expiresAt: expiresAt, now: now, db) }
    }

    /// The hash is inserted, or takes over its expired row (the conflict's update applies only
    /// then), as in the PostgreSQL store: expired rows are deleted by the sweep, not by every
    /// burn.
    static func markSignatureUsed(_ hash: [UInt8], expiresAt: Date, now: Date, _ db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: """
                INSERT INTO used_signatures (hash, expires_at) VALUES (?, ?)
                ON CONFLICT (hash) DO UPDATE SET expires_at = excluded.expires_at WHERE used_signatures.expires_at < ?
                """).execute(
            arguments: [Data(hash), expiresAt.unixSeconds, now.unixSeconds]
        )
        return db.changesCount == 1
    }

    /// One DELETE over the expiry index.
    @discardableResult
    package func forgetUsedSignatures(expiredBefore now: Date) async throws -> Int {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM used_signatures WHERE expires_at < ?").execute(arguments: [now.unixSeconds])
            return db.changesCount
        }
    }

    static func device(_ db: Database, id: String) throws -> DeviceRecord? {
        try db.cachedStatement(sql: "SELECT * FROM devices WHERE id = ?").fetchOne(DeviceRecord.self, arguments: [id])
    }

    static func insert(_ device: DeviceRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO devices (
                    id, user_id, name, platform, possession_key, biometry_key, status, fail_count,
                    created_at, last_used_at
                ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(
            arguments: [
                device.id, device.userID, device.name, device.platform, Data(device.possessionKey),
                device.biometryKey.map { Data($0) }, device.status.rawValue, device.failCount,
                device.createdAt.unixSeconds, device.lastUsedAt?.unixSeconds,
            ]
        )
    }
}
