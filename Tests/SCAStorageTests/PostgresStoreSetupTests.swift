import Foundation
import SCAStorageSQLite
import SCAStoragePostgres
import Testing

/// What the PostgreSQL backend promises before any server is involved: its schema history
/// matches SQLite's, its URL is read strictly, and a server that is not there is reported at once.
@Suite("PostgresStore set-up")
struct PostgresStoreSetupTests {
    @Test func migrationIDsMatchSQLite() {
        #expect(PostgresStore.migrationIDs == SQLiteStore.migrationIDs)
    }

    @Test func readsAConnectionURL() throws {
        let url = try PostgresDatabaseURL("postgresql://sca%40bank:p%2Fss@db.internal:6543/sca_prod?sslmode=require&pool_size=25")
        #expect(url.host == "db.internal")
        #expect(url.port == 6543)
        #expect(url.username == "sca@bank")
        #expect(url.password == "p/ss")
        #expect(url.database == "sca_prod")
        #expect(url.sslMode == "require")
        #expect(url.poolSize == 25)
        #expect(url.redacted == "postgres://sca@bank@db.internal:6543/sca_prod")
        #expect(!url.redacted.contains("p/ss"), "the password is never shown")

        let minimal = try PostgresDatabaseURL("postgres://sca@localhost")
        #expect(minimal.port == 5432)
        #expect(minimal.database == nil)
        #expect(minimal.password == nil)
        #expect(minimal.sslMode == "prefer", "libpq's default")
        #expect(minimal.poolSize == 10)

        let schema = try PostgresDatabaseURL("postgres://sca@localhost/sca?search_path=tenant_a&application_name=sca-1")
        #expect(schema.searchPath == "tenant_a")
        #expect(schema.applicationName == "sca-1")
    }

    @Test(arguments: [
        "mysql://sca@localhost/sca",
        "postgres:///sca",
        "postgres://localhost/sca",
        "postgres://sca@localhost/sca?sslmode=always",
        "postgres://sca@localhost/sca?ssl_mode=disable",
        "postgres://sca@localhost/sca?pool_size=0",
        "not a url",
    ])
    func refusesBadURLs(_ url: String) {
        #expect(throws: PostgresStoreError.self) { try PostgresDatabaseURL(url) }
    }

    @Test func unknownParameterIsNamed() {
        #expect(throws: PostgresStoreError(reason: "unknown database URL parameter 'ssl_mode'")) {
            try PostgresDatabaseURL("postgres://sca:secret@localhost/sca?ssl_mode=disable")
        }
    }

    /// PostgresNIO's pool retries a refused connection for ever; the store connects once
    /// first, so a wrong address stops the server's start-up with a clear message. (The time
    /// limit is what "for ever" would break; how soon it fails is the machine's business.)
    @Test(.timeLimit(.minutes(1)))
    func unreachableServerFailsAtOnce() async throws {
        let error = await #expect(throws: PostgresStoreError.self) {
            _ = try await PostgresStore.connect(
                url: "postgres://sca:secret@127.0.0.1:1/sca?sslmode=disable", logger: PostgresTestDatabase.logger)
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("postgres://sca@127.0.0.1:1/sca"))
        #expect(!message.contains("secret"))
    }
}
