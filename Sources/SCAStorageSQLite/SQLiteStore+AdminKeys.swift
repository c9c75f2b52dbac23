import Foundation
import GRDB
import SCAStorage

// v3-admin-keys: scoped admin API keys.
extension SQLiteStore {
    /// - Throws: `StoreError.conflict("id")` or `StoreError.conflict("name")` when taken.
    package func createAdminKey(_ key: AdminKeyRecord) async throws {
        try await write { db in
            // Checked first so the error names the field; the constraints stay the last word.
            if try db.exists("SELECT 1 FROM admin_keys WHERE id = ?", arguments: [key.id]) {
                throw StoreError.conflict("id")
            }
            if try db.exists("SELECT 1 FROM admin_keys WHERE name = ?", arguments: [key.name]) {
                throw StoreError.conflict("name")
            }
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO admin_keys (id, name, scopes, key_hash, created_at, last_used_at, revoked_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [
                        key.id, key.name, try JSONColumn.text(rawValues: key.scopes), Data(key.keyHash),
                        key.createdAt.unixSeconds, key.lastUsedAt?.unixSeconds, key.revokedAt?.unixSeconds,
                    ])
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("name")
            }
        }
    }

    package func adminKey(id: String) async throws -> AdminKeyRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM admin_keys WHERE id = ?").fetchOne(AdminKeyRecord.self, arguments: [id])
        }
    }

    /// Oldest first (insertion order among equal creation dates).
    package func adminKeys() async throws -> [AdminKeyRecord] {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM admin_keys ORDER BY created_at, rowid").fetchAll(AdminKeyRecord.self)
        }
    }

    package func revokeAdminKey(id: String, now: Date) async throws -> AdminKeyRecord? {
        try await write { db in
            try db.cachedStatement(
                sql: "UPDATE admin_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").execute(
                arguments: [now.unixSeconds, id])
            return try db.cachedStatement(sql: "SELECT * FROM admin_keys WHERE id = ?").fetchOne(AdminKeyRecord.self, arguments: [id])
        }
    }

    package func recordAdminKeyUse(id: String, now: Date) async throws {
        try await write { db in
            try db.cachedStatement(
                sql: "UPDATE admin_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)").execute(
                arguments: [now.unixSeconds, id, now.unixSeconds])
        }
    }
}
