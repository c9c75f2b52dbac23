import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Passkeys: a registration locks the owner's row, so registrations of one user on any
// instances are counted one after the other; the counter is compared and set in one UPDATE.
extension PostgresStore {
    package func registerPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws -> PasskeyRegistration {
        do {
            return try await transaction { [self] connection in
                // NO KEY UPDATE: serialises this user's registrations without blocking the
                // foreign-key checks of other writes that reference the user.
                _ = try await connection.rows(
                    "SELECT 1 FROM users WHERE id = \(passkey.userID) FOR NO KEY UPDATE", logger: logger)
                let taken = try await !connection.rows(
                    "SELECT 1 FROM passkeys WHERE credential_id = \(bytea(passkey.credentialID))", logger: logger
                ).isEmpty
                let owned = try await connection.rows(
                    "SELECT id FROM passkeys WHERE user_id = \(passkey.userID)", logger: logger
                ).count
                let decision = PasskeyRegistration.decide(
                    passkey, credentialTaken: taken, ownerPasskeys: owned, maximumPerUser: maximumPerUser)
                guard case .registered = decision else { return decision }
                _ = try await connection.rows(
                    """
                    INSERT INTO passkeys (
                        id, user_id, credential_id, public_key, sign_count, backup_eligible, backed_up, aaguid,
                        attestation_type, attestation_format, name, status, created_at, last_used_at
                    ) VALUES (
                        \(passkey.id), \(passkey.userID), \(bytea(passkey.credentialID)), \(bytea(passkey.publicKey)),
                        \(passkey.signCount), \(passkey.backupEligible), \(passkey.backedUp), \(bytea(passkey.aaguid)),
                        \(passkey.attestationType), \(passkey.attestationFormat), \(passkey.name),
                        \(passkey.status.rawValue), \(passkey.createdAt.unixSeconds), \(passkey.lastUsedAt?.unixSeconds)
                    )
                    """,
                    logger: logger)
                try await countActivePasskeys(userID: passkey.userID, connection)
                return decision
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // Another user registered the same credential id at the same moment.
            return .duplicateCredential
        }
    }

    package func passkey(id: String) async throws -> PasskeyRecord? {
        try await rows("SELECT * FROM passkeys WHERE id = \(id)").first.map(PasskeyRecord.init(row:))
    }

    package func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord? {
        try await rows("SELECT * FROM passkeys WHERE credential_id = \(bytea(credentialID))").first
            .map(PasskeyRecord.init(row:))
    }

    /// Oldest first; passkeys created at the same instant by id.
    package func passkeys(userID: String) async throws -> [PasskeyRecord] {
        try await rows("SELECT * FROM passkeys WHERE user_id = \(userID) ORDER BY created_at, id")
            .map(PasskeyRecord.init(row:))
    }

    package func deletePasskey(id: String) async throws -> Bool {
        try await transaction { [self] connection in
            guard let owner = try await connection.rows("DELETE FROM passkeys WHERE id = \(id) RETURNING user_id", logger: logger)
                .first?.decode(String.self)
            else { return false }
            try await countActivePasskeys(userID: owner, connection)
            return true
        }
    }

    package func recordPasskeyUse(
        id: String, expectedSignCount: Int64, signCount: Int64, backedUp: Bool, now: Date
    ) async throws -> Bool {
        try await !rows(
            """
            UPDATE passkeys SET sign_count = \(signCount), backed_up = \(backedUp), last_used_at = \(now.unixSeconds)
            WHERE id = \(id) AND sign_count = \(expectedSignCount) AND status = 'active' RETURNING id
            """
        ).isEmpty
    }

    package func markPasskeySuspect(id: String) async throws -> PasskeyRecord? {
        try await transaction { [self] connection in
            let passkey = try await connection.rows("UPDATE passkeys SET status = 'suspect' WHERE id = \(id) RETURNING *", logger: logger)
                .first.map(PasskeyRecord.init(row:))
            if let passkey { try await countActivePasskeys(userID: passkey.userID, connection) }
            return passkey
        }
    }

    /// Recounts the user's active passkeys into `users.active_passkeys` (v3-proof-path), in
    /// the transaction that changed them.
    private func countActivePasskeys(userID: String, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            UPDATE users SET active_passkeys =
                (SELECT COUNT(*) FROM passkeys WHERE user_id = \(userID) AND status = 'active')
            WHERE id = \(userID)
            """,
            logger: logger)
    }
}
