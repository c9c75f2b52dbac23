import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// Signing keys, newest activation first.
    package func signingKeys() async throws -> [SigningKeyRecord] {
        try await rows("SELECT * FROM signing_keys ORDER BY activates_at DESC, created_at DESC, seq DESC").map(SigningKeyRecord.init(row:))
    }

    /// The check and the insert run in one transaction holding an advisory lock of this
    /// schema: row locks cannot guard a row that does not exist yet, and of several instances
    /// starting on one database the first must store its key and the others adopt it.
    package func addSigningKeyIfNone(_ candidate: SigningKeyRecord) async throws -> SigningKeyRecord {
        try await transaction { [self] connection in
            try await connection.lockSchema(PostgresMigrations.signingKeyLock, logger: logger)
            if let newest = try await newestSigningKey(connection) {
                return newest
            }
            try await insert(candidate, connection)
            return candidate
        }
    }

    /// Under the same lock as the first key: of two instances due at once, the second finds the
    /// first one's key newest and is refused.
    package func rotateSigningKey(
        to candidate: SigningKeyRecord, if rotation: SigningKeyRotation
    ) async throws -> SigningKeyRotationOutcome {
        try await transaction { [self] connection in
            try await connection.lockSchema(PostgresMigrations.signingKeyLock, logger: logger)
            if let newest = try await newestSigningKey(connection), !rotation.allows(candidate, after: newest) {
                return .refused(newest: newest)
            }
            try await insert(candidate, connection)
            return .rotated(candidate)
        }
    }

    private func newestSigningKey(_ connection: PostgresConnection) async throws -> SigningKeyRecord? {
        try await connection.rows(
            "SELECT * FROM signing_keys ORDER BY activates_at DESC, created_at DESC, seq DESC LIMIT 1", logger: logger
        ).first.map(SigningKeyRecord.init(row:))
    }

    private func insert(_ key: SigningKeyRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            INSERT INTO signing_keys (key_id, algorithm, sealed_private_key, created_at, activates_at)
            VALUES (
                \(key.keyID), \(key.algorithm), \(bytea(key.sealedPrivateKey)),
                \(key.createdAt.unixSeconds), \(key.activatesAt.unixSeconds)
            )
            """,
            logger: logger)
    }
}
