import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Devices are stored by `registerDevice` (PostgresStore+ActivationCodes.swift). A status change
// and the counting of a failure are each one conditional UPDATE, which works from the newest
// version of the row: concurrent signatures on any instances are all counted.
extension PostgresStore {
    package func device(id: String) async throws -> DeviceRecord? {
        try await rows("SELECT * FROM devices WHERE id = \(id)").first.map(DeviceRecord.init(row:))
    }

    /// Oldest first; devices created at the same instant by id.
    package func devices(userID: String) async throws -> [DeviceRecord] {
        try await rows("SELECT * FROM devices WHERE user_id = \(userID) ORDER BY created_at, id")
            .map(DeviceRecord.init(row:))
    }

    /// Applies `DeviceRecord.setStatus` to the device, its row locked for the transaction: a
    /// removed device is returned unchanged.
    @discardableResult
    package func setDeviceStatus(id: String, to status: DeviceStatus) async throws -> DeviceRecord? {
        try await transaction { [self] connection in
            guard var device = try await lockedDevice(connection, id: id) else { return nil }
            device.setStatus(status)
            try await storeStatus(of: device, connection)
            return device
        }
    }

    package func renameDevice(id: String, to name: String) async throws -> DeviceRecord? {
        try await transaction { [self] connection in
            guard var device = try await lockedDevice(connection, id: id) else { return nil }
            device.name = name
            _ = try await connection.rows("UPDATE devices SET name = \(name) WHERE id = \(id)", logger: logger)
            return device
        }
    }

    /// Applies `DeviceRecord.recordFailure` to the device, its row locked for the transaction,
    /// so concurrent failures on any instances are counted one after the other.
    package func recordDeviceFailure(id: String, maximumFailures: Int) async throws -> DeviceRecord? {
        try await transaction { [self] connection in
            try await recordDeviceFailure(id: id, maximumFailures: maximumFailures, connection)
        }
    }

    func recordDeviceFailure(id: String, maximumFailures: Int, _ connection: PostgresConnection) async throws -> DeviceRecord? {
        guard var device = try await lockedDevice(connection, id: id) else { return nil }
        device.recordFailure(maximumFailures: maximumFailures)
        try await storeStatus(of: device, connection)
        return device
    }

    /// The device, its row locked until the transaction ends. NO KEY UPDATE: the status and
    /// count change, not the key, so writes that only reference the device are not blocked.
    private func lockedDevice(_ connection: PostgresConnection, id: String) async throws -> DeviceRecord? {
        try await connection.rows("SELECT * FROM devices WHERE id = \(id) FOR NO KEY UPDATE", logger: logger)
            .first.map(DeviceRecord.init(row:))
    }

    private func storeStatus(of device: DeviceRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            UPDATE devices SET status = \(device.status.rawValue), fail_count = \(device.failCount)
            WHERE id = \(device.id)
            """,
            logger: logger)
    }

    /// Leaves the status alone: a signature verified before a block does not lift it.
    /// - Throws: `StoreError.notFound` when there is no such device.
    package func recordDeviceSuccess(id: String, now: Date) async throws {
        try await leased { [self] connection in try await recordDeviceSuccess(id: id, now: now, connection) }
    }

    func recordDeviceSuccess(id: String, now: Date, _ connection: PostgresConnection) async throws {
        let updated = try await connection.rows(
            "UPDATE devices SET fail_count = 0, last_used_at = \(now.unixSeconds) WHERE id = \(id) RETURNING id", logger: logger)
        if updated.isEmpty { throw StoreError.notFound }
    }

    /// Remembers the hash until `expiresAt`. A hash past its expiry is accepted again (and
    /// forgotten by the periodic ``forgetUsedSignatures(expiredBefore:)``): the caller must bind
    /// each signature to something that itself expires no later than `expiresAt` (the challenge
    /// it signs), so that a replay after that is refused before its hash is looked up.
    package func markSignatureUsed(_ hash: [UInt8], expiresAt: Date, now: Date) async throws -> Bool {
        try await leased { [self] connection in
            try await markSignatureUsed(hash, expiresAt: expiresAt, now: now, connection)
        }
    }

    /// One statement (alone, or inside a proof's transaction): the hash is inserted, or taken
    /// over when its earlier use has expired (the conflict's update applies only then); a live
    /// one answers no row. Two calls racing for one hash meet on its unique index, and the
    /// second sees the first's row. Expired rows are not deleted here but by the sweep, so a
    /// burn writes one row and scans nothing else.
    func markSignatureUsed(_ hash: [UInt8], expiresAt: Date, now: Date, _ connection: PostgresConnection) async throws -> Bool {
        let inserted = try await connection.rows(
            """
            INSERT INTO used_signatures (hash, expires_at) VALUES (\(bytea(hash)), \(expiresAt.unixSeconds))
            ON CONFLICT (hash) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE used_signatures.expires_at < \(now.unixSeconds)
            RETURNING hash
            """,
            logger: logger)
        return inserted.count == 1
    }

    /// One DELETE over the expiry index.
    @discardableResult
    package func forgetUsedSignatures(expiredBefore now: Date) async throws -> Int {
        let deleted = try await rows(
            """
            WITH forgotten AS (DELETE FROM used_signatures WHERE expires_at < \(now.unixSeconds) RETURNING 1)
            SELECT count(*) AS forgotten FROM forgotten
            """)
        return try deleted.first.map { try Columns($0).value("forgotten", as: Int.self) } ?? 0
    }

    func insert(_ device: DeviceRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            INSERT INTO devices (
                id, user_id, name, platform, possession_key, biometry_key, status, fail_count,
                created_at, last_used_at
            ) VALUES (
                \(device.id), \(device.userID), \(device.name), \(device.platform), \(bytea(device.possessionKey)),
                \(device.biometryKey.map(bytea)), \(device.status.rawValue), \(device.failCount),
                \(device.createdAt.unixSeconds), \(device.lastUsedAt?.unixSeconds)
            )
            """,
            logger: logger)
    }
}
