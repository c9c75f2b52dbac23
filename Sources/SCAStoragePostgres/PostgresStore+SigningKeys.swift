import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// Signing keys, newest first.
    package func signingKeys() async throws -> [SigningKeyRecord] {
        try await rows("SELECT * FROM signing_keys ORDER BY created_at DESC, seq DESC").map(SigningKeyRecord.init(row:))
    }

    /// The check and the insert run in one transaction holding an advisory lock of this
    /// schema: row locks cannot guard a row that does not exist yet, and of several instances
    /// starting on one database the first must store its key and the others adopt it.
    package func addSigningKeyIfNone(_ candidate: SigningKeyRecord) async throws -> SigningKeyRecord {
        try await transaction { [self] connection in
            try await connection.lockSchema(PostgresMigrations.signingKeyLock, logger: logger)
            let newest = try await connection.rows(
                "SELECT * FROM signing_keys ORDER BY created_at DESC, seq DESC LIMIT 1", logger: logger
            ).first
            if let newest {
                return try SigningKeyRecord(row: newest)
            }
            _ = try await connection.rows(
                """
                INSERT INTO signing_keys (key_id, algorithm, sealed_private_key, created_at)
                VALUES (
                    \(candidate.keyID), \(candidate.algorithm), \(bytea(candidate.sealedPrivateKey)),
                    \(candidate.createdAt.unixSeconds)
                )
                """,
                logger: logger)
            return candidate
        }
    }
}
