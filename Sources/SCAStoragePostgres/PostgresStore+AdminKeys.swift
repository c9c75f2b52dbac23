import Foundation
import PostgresNIO
import SCAStorage

// v3-admin-keys: scoped admin API keys.
extension PostgresStore {
    /// One INSERT: the constraints decide between racing instances, and the constraint the
    /// server names tells which field was taken.
    /// - Throws: `StoreError.conflict("id")` or `StoreError.conflict("name")` when taken.
    package func createAdminKey(_ key: AdminKeyRecord) async throws {
        let scopes = try JSONColumn.text(rawValues: key.scopes)
        do {
            _ = try await rows(
                """
                INSERT INTO admin_keys (id, name, scopes, key_hash, created_at, last_used_at, revoked_at)
                VALUES (
                    \(key.id), \(key.name), \(scopes), \(bytea(key.keyHash)), \(key.createdAt.unixSeconds),
                    \(key.lastUsedAt?.unixSeconds), \(key.revokedAt?.unixSeconds)
                )
                """)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict(error.constraintName == "admin_keys_pkey" ? "id" : "name")
        }
    }

    package func adminKey(id: String) async throws -> AdminKeyRecord? {
        try await rows("SELECT * FROM admin_keys WHERE id = \(id)").first.map(AdminKeyRecord.init(row:))
    }

    /// Oldest first (insertion order among equal creation dates).
    package func adminKeys() async throws -> [AdminKeyRecord] {
        try await rows("SELECT * FROM admin_keys ORDER BY created_at, seq").map(AdminKeyRecord.init(row:))
    }

    /// One UPDATE then a read: revoking twice keeps the first date.
    package func revokeAdminKey(id: String, now: Date) async throws -> AdminKeyRecord? {
        _ = try await rows("UPDATE admin_keys SET revoked_at = \(now.unixSeconds) WHERE id = \(id) AND revoked_at IS NULL")
        return try await adminKey(id: id)
    }

    package func recordAdminKeyUse(id: String, now: Date) async throws {
        _ = try await rows(
            """
            UPDATE admin_keys SET last_used_at = \(now.unixSeconds)
            WHERE id = \(id) AND (last_used_at IS NULL OR last_used_at < \(now.unixSeconds))
            """)
    }
}
