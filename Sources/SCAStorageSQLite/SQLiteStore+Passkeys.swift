import Foundation
import GRDB
import SCACore
import SCAStorage

// Passkeys: each operation is one write transaction, so registrations of one user are counted
// one after the other and the counter is compared and set in one statement.
extension SQLiteStore {
    package func registerPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws -> PasskeyRegistration {
        try await write { db in
            let taken = try db.exists("SELECT 1 FROM passkeys WHERE credential_id = ?", arguments: [Data(passkey.credentialID)])
            let owned = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM passkeys WHERE user_id = ?"), arguments: [passkey.userID]) ?? 0
            let decision = PasskeyRegistration.decide(
                passkey, credentialTaken: taken, ownerPasskeys: owned, maximumPerUser: maximumPerUser)
            guard case .registered = decision else { return decision }
            try db.cachedStatement(
                sql: """
                    INSERT INTO passkeys (
                        id, user_id, credential_id, public_key, sign_count, backup_eligible, backed_up, aaguid,
                        attestation_type, attestation_format, name, status, created_at, last_used_at
                    ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(
                arguments: [
                    passkey.id, passkey.userID, Data(passkey.credentialID), Data(passkey.publicKey), passkey.signCount,
                    passkey.backupEligible, passkey.backedUp, Data(passkey.aaguid), passkey.attestationType,
                    passkey.attestationFormat, passkey.name, passkey.status.rawValue, passkey.createdAt.unixSeconds,
                    passkey.lastUsedAt?.unixSeconds,
                ]
            )
            try Self.countActivePasskeys(userID: passkey.userID, db)
            return decision
        }
    }

    package func passkey(id: String) async throws -> PasskeyRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM passkeys WHERE id = ?").fetchOne(PasskeyRecord.self, arguments: [id])
        }
    }

    package func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM passkeys WHERE credential_id = ?").fetchOne(PasskeyRecord.self, arguments: [Data(credentialID)])
        }
    }

    /// Oldest first; passkeys created at the same instant by id.
    package func passkeys(userID: String) async throws -> [PasskeyRecord] {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at, id").fetchAll(PasskeyRecord.self, arguments: [userID])
        }
    }

    package func deletePasskey(id: String) async throws -> Bool {
        try await write { db in
            let owner = try String.fetchOne(db.cachedStatement(sql: "SELECT user_id FROM passkeys WHERE id = ?"), arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM passkeys WHERE id = ?").execute(arguments: [id])
            guard let owner else { return false }
            try Self.countActivePasskeys(userID: owner, db)
            return true
        }
    }

    package func recordPasskeyUse(
        id: String, expectedSignCount: Int64, signCount: Int64, backedUp: Bool, now: Date
    ) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE passkeys SET sign_count = ?, backed_up = ?, last_used_at = ?
                    WHERE id = ? AND sign_count = ? AND status = 'active'
                    """).execute(
                arguments: [signCount, backedUp, now.unixSeconds, id, expectedSignCount]
            )
            return db.changesCount == 1
        }
    }

    package func markPasskeySuspect(id: String) async throws -> PasskeyRecord? {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE passkeys SET status = 'suspect' WHERE id = ?").execute(arguments: [id])
            let passkey = try db.cachedStatement(sql: "SELECT * FROM passkeys WHERE id = ?").fetchOne(PasskeyRecord.self, arguments: [id])
            if let passkey { try Self.countActivePasskeys(userID: passkey.userID, db) }
            return passkey
        }
    }

    /// Recounts the user's active passkeys into `users.active_passkeys` (v3-proof-path), in
    /// the transaction that changed them.
    private static func countActivePasskeys(userID: String, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE users SET active_passkeys =
                    (SELECT COUNT(*) FROM passkeys WHERE user_id = ? AND status = 'active')
                WHERE id = ?
                """
        ).execute(arguments: [userID, userID])
    }
}
