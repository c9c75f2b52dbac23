import Foundation
import GRDB
import SCAStorage

extension SQLiteStore {
    /// Signing keys, newest activation first.
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
            try Self.insert(candidate, db)
            return candidate
        }
    }

    /// The rule is judged on the newest key read in the write transaction that stores the
    /// candidate: SQLite's one writer makes the two one step.
    package func rotateSigningKey(
        to candidate: SigningKeyRecord, if rotation: SigningKeyRotation
    ) async throws -> SigningKeyRotationOutcome {
        try await write { db in
            if let newest = try Self.signingKeys(db, limit: 1).first, !rotation.allows(candidate, after: newest) {
                return .refused(newest: newest)
            }
            try Self.insert(candidate, db)
            return .rotated(candidate)
        }
    }

    private static func insert(_ key: SigningKeyRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT INTO signing_keys (key_id, algorithm, sealed_private_key, created_at, activates_at) VALUES (?, ?, ?, ?, ?)"
        ).execute(
            arguments: [key.keyID, key.algorithm, Data(key.sealedPrivateKey), key.createdAt.unixSeconds, key.activatesAt.unixSeconds]
        )
    }

    private static func signingKeys(_ db: Database, limit: Int = -1) throws -> [SigningKeyRecord] {
        // SQLite reads a negative LIMIT as no limit.
        try db.cachedStatement(sql: "SELECT * FROM signing_keys ORDER BY activates_at DESC, created_at DESC, rowid DESC LIMIT ?")
            .fetchAll(SigningKeyRecord.self, arguments: [limit])
    }
}
