import Foundation
import GRDB
import SCAStorage

extension SQLiteStore {
    /// Signing keys, newest first.
    package func signingKeys() async throws -> [SigningKeyRecord] {
        try await read { db in
            try Self.signingKeys(db)
        }
    }

    /// The check and the insert share one write transaction, so of several instances starting
    /// on one database the first stores its key and the others adopt it.
    package func addSigningKeyIfNone(_ candidate: SigningKeyRecord) async throws -> SigningKeyRecord {
        try await write { db in
            if let newest = try Self.signingKeys(db, limit: 1).first {
                return newest
            }
            try db.cachedStatement(
                sql: "INSERT INTO signing_keys (key_id, algorithm, sealed_private_key, created_at) VALUES (?, ?, ?, ?)").execute(
                arguments: [
                    candidate.keyID, candidate.algorithm, Data(candidate.sealedPrivateKey),
                    candidate.createdAt.unixSeconds,
                ]
            )
            return candidate
        }
    }

    private static func signingKeys(_ db: Database, limit: Int = -1) throws -> [SigningKeyRecord] {
        // SQLite reads a negative LIMIT as no limit.
        try db.cachedStatement(sql: "SELECT * FROM signing_keys ORDER BY created_at DESC, rowid DESC LIMIT ?")
            .fetchAll(SigningKeyRecord.self, arguments: [limit])
    }
}
