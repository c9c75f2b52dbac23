import Foundation
import Logging
import PostgresNIO
import SCAStorage

/// The shared-database ``SCAStore``: PostgreSQL through PostgresNIO, for several server
/// instances on one database.
///
/// Every protocol method is atomic on its own across connections and instances. A check that
/// fits one statement is one conditional statement (`UPDATE … WHERE … RETURNING`,
/// `INSERT … ON CONFLICT DO NOTHING RETURNING`): PostgreSQL re-checks the condition against
/// the newest version of a row it had to wait for, so of two racing statements the second
/// sees the first's effect. A read-modify-write that needs Swift logic runs in one
/// transaction that first locks the rows it reads (`SELECT … FOR [NO KEY] UPDATE`), so
/// concurrent calls on the same rows run one after the other, whichever instance they come
/// from. Rows that do not exist yet (the first signing key) are guarded by an advisory lock.
///
/// Dates are `DOUBLE PRECISION` unix seconds, as in the SQLite store, so both backends hold
/// the same values and compare them as numbers.
public final class PostgresStore: SCAStore {
    /// The connection pool. Queries lease a connection for one statement or one transaction.
    let client: PostgresClient
    let logger: Logger
    /// Runs `client.run()`, which the pool needs to open and keep connections; cancelled by
    /// ``shutdown()`` or when the store goes away.
    private let runTask: Task<Void, Never>

    private init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        // `Task.immediate` enters `run()` before returning, so the pool counts as running by
        // the first query (PostgresNIO warns about a query that comes first).
        if #available(macOS 26, iOS 26, *) {
            runTask = Task.immediate { await client.run() }
        } else {
            runTask = Task { await client.run() }
        }
    }

    deinit {
        runTask.cancel()
    }

    /// The identifiers of the schema steps, in order: the same as `SQLiteStore.migrationIDs`,
    /// so that a database's history reads alike in both backends.
    public static let migrationIDs: [String] = PostgresMigrations.identifiers

    /// Connects to the database at `url`, brings its schema up to date and opens the pool.
    ///
    /// Migrations run first, over a single connection of their own: it fails at once when the
    /// server cannot be reached or refuses the login, where the pool would keep retrying.
    /// Instances starting together take turns through an advisory lock, so each step runs once.
    ///
    /// - Parameter url: `postgres://user:password@host:port/database?sslmode=disable`; see
    ///   ``PostgresDatabaseURL`` for the parameters understood.
    /// - Throws: ``PostgresStoreError`` for a bad URL, an unreachable server, a refused login
    ///   or a failed migration.
    public static func connect(url: String, logger: Logger) async throws -> PostgresStore {
        let settings = try PostgresDatabaseURL(url)
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try settings.connectionConfiguration(), id: 0, logger: logger)
            do {
                try await PostgresMigrations.migrate(connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch let error as PSQLError {
            throw PostgresStoreError.connection(error, target: settings.redacted)
        }
        let store = PostgresStore(
            client: PostgresClient(configuration: try settings.clientConfiguration(), backgroundLogger: logger),
            logger: logger)
        logger.info("PostgreSQL store ready", metadata: ["database": "\(settings.redacted)"])
        return store
    }

    /// Closes the pool's connections. The store cannot be used afterwards.
    public func shutdown() async {
        runTask.cancel()
        await runTask.value
    }

    // MARK: Health

    /// Runs a trivial query, giving up after `timeout`: while the server is unreachable the
    /// pool keeps trying to connect and a query would wait for it, where a readiness probe
    /// needs an answer.
    /// - Throws: A PostgresNIO error, or ``PostgresStoreError`` on timeout.
    public func checkHealth() async throws {
        try await checkHealth(timeout: .seconds(5))
    }

    func checkHealth(timeout: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await self.rows("SELECT 1") }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PostgresStoreError(reason: "no answer from the database within \(timeout)")
            }
            // The first to finish decides; cancelling the other withdraws a waiting lease.
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    // MARK: Running statements

    /// Runs one statement on a pooled connection and returns its rows (none for most writes).
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.query(query, logger: logger).collect()
    }

    /// Runs `body` in one transaction on one pooled connection: committed when `body`
    /// returns, rolled back when it throws, and the error `body` threw is rethrown unchanged
    /// (PostgresNIO's own `withTransaction` wraps it, which would hide a `StoreError`).
    func transaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            let result: Result
            do {
                result = try await body(connection)
            } catch {
                do {
                    try await connection.query("ROLLBACK", logger: logger)
                } catch {
                    // A connection that cannot roll back is in an unknown state: drop it
                    // rather than give it back to the pool inside a transaction.
                    try? await connection.close()
                }
                throw error
            }
            // A failed COMMIT ends the transaction on the server (rolled back), so the
            // connection goes back to the pool clean.
            try await connection.query("COMMIT", logger: logger)
            return result
        }
    }
}

extension PostgresConnection {
    /// Runs one statement inside a transaction and returns its rows.
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await self.query(query, logger: logger).collect()
    }
}
