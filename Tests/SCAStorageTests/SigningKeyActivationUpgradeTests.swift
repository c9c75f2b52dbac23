import Foundation
import GRDB
import SCAStorage
@testable import SCAStorageSQLite
import SCAStoragePostgres
import Testing

/// An installation upgraded to rotating keys (v8-signing-key-activation) keeps signing with the
/// key it had: every key stored before activates at its creation, and the newest stays first.
enum SigningKeyActivationUpgradeCheck {
    static let t0 = StoreConformance.t0
    static let lastStepBefore = "v7-partner-notifications"
    /// Two keys as an older server stored them (a second one by hand; the server made one).
    static let older = [("old-1", t0), ("old-2", t0 + 86_400)]

    static func check(_ store: any SCAStore) async throws {
        let keys = try await store.signingKeys()
        #expect(keys.map(\.keyID) == ["old-2", "old-1"])
        #expect(keys.allSatisfy { $0.activatesAt == $0.createdAt })
        #expect(keys.map(\.createdAt) == [t0 + 86_400, t0])
    }
}

@Suite("Signing keys on upgrade: SQLite")
struct SQLiteSigningKeyActivationUpgradeTests {
    @Test("a file written before v8-signing-key-activation activates its keys at their creation")
    func upgradedFileKeepsItsKeys() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            do {
                let older = try DatabaseQueue(path: path)
                try SQLiteMigrations.migrator.migrate(older, upTo: SigningKeyActivationUpgradeCheck.lastStepBefore)
                try await older.write { db in
                    for (id, created) in SigningKeyActivationUpgradeCheck.older {
                        try db.execute(
                            sql: "INSERT INTO signing_keys (key_id, algorithm, sealed_private_key, created_at) VALUES (?, 'ES256', ?, ?)",
                            arguments: [id, Data([1]), created.timeIntervalSince1970])
                    }
                }
                try older.close()
            }
            try await SigningKeyActivationUpgradeCheck.check(try SQLiteStore(path: path))
        }
    }
}

@Suite(
    "Signing keys on upgrade: PostgreSQL", .serialized,
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct PostgresSigningKeyActivationUpgradeTests {
    @Test("a schema written before v8-signing-key-activation activates its keys at their creation")
    func upgradedSchemaKeepsItsKeys() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger).withRunning { _ in }
            // Back to the schema before the step, as an older server left it.
            for statement in [
                "DROP INDEX signing_keys_activates_at",
                "ALTER TABLE signing_keys DROP COLUMN activates_at",
                "DELETE FROM schema_migrations WHERE id = 'v8-signing-key-activation'",
            ] {
                try await PostgresTestDatabase.execute(statement, url: url)
            }
            for (id, created) in SigningKeyActivationUpgradeCheck.older {
                // The values are this test's constants, with no quote in them.
                try await PostgresTestDatabase.execute(
                    """
                    INSERT INTO signing_keys (key_id, algorithm, sealed_private_key, created_at)
                    VALUES ('\(id)', 'ES256', '\\x01', \(created.timeIntervalSince1970))
                    """, url: url)
            }
            try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger).withRunning { store in
                try await SigningKeyActivationUpgradeCheck.check(store)
            }
        }
    }
}
