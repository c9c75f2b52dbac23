import Foundation
import Logging
import PostgresNIO
import SCAStorage
import ServiceLifecycle

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
///
/// The store answers while its ``run()`` runs: a server puts it in its `ServiceGroup` before
/// the services that query it (the group shuts them down in reverse order, so the pool closes
/// last); a one-shot command runs it in a task group around its work.
package final class PostgresStore: SCAStore, Service {
    /// The connection pool. Queries lease a connection for one statement or one transaction.
    let client: PostgresClient
    let logger: Logger
    /// How long one operation (lease, statements, commit) may take before it fails with
    /// `StoreUnavailable`; see ``leased(span:function:_:)``.
    let timeout: Duration
    /// Where each operation's span goes (``leased(span:function:_:)``); `.off` records none.
    let tracing: TraceRecorder

    private init(client: PostgresClient, logger: Logger, timeout: Duration, tracing: TraceRecorder) {
        self.client = client
        self.logger = logger
        self.timeout = timeout
        self.tracing = tracing
    }

    /// The identifiers of the schema steps, in order: the same as `SQLiteStore.migrationIDs`,
    /// so that a database's history reads alike in both backends.
    package static let migrationIDs: [String] = PostgresMigrations.identifiers

    /// Connects to the database at `url`, brings its schema up to date and prepares the pool,
    /// which opens connections once ``run()`` runs.
    ///
    /// Migrations run first, over a single connection of their own: it fails at once when the
    /// server cannot be reached or refuses the login, where the pool would keep retrying.
    /// Instances starting together take turns through an advisory lock, so each step runs once.
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database?sslmode=disable`; see
    ///     ``PostgresDatabaseURL`` for the parameters understood.
    ///   - timeout: the deadline of every store operation once running (waiting for a pooled
    ///     connection included), and of opening a connection. An operation that misses it
    ///     fails with `StoreUnavailable`.
    ///   - tracing: records a span for each operation (`store.statement`, or `store.transaction`
    ///     for a transaction), a child of the caller's; `.off` records none.
    /// - Throws: ``PostgresStoreError`` for a bad URL, an unreachable server, a refused login
    ///   or a failed migration.
    package static func connect(
        url: String, timeout: Duration = .seconds(5), tracing: TraceRecorder = .off, logger: Logger
    ) async throws -> PostgresStore {
        let settings = try PostgresDatabaseURL(url)
        do {
            var configuration = try settings.connectionConfiguration()
            configuration.options.connectTimeout = .init(timeout)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
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
        var clientConfiguration = try settings.clientConfiguration()
        // A connection attempt to a silent host gives up within the deadline, so that the pool
        // retries (with its own backoff) and a recovered database is found again by itself.
        clientConfiguration.options.connectTimeout = timeout
        let store = PostgresStore(
            client: PostgresClient(configuration: clientConfiguration, backgroundLogger: logger),
            logger: logger, timeout: timeout, tracing: tracing)
        logger.info("PostgreSQL store ready", metadata: ["database": "\(settings.redacted)"])
        return store
    }

    /// Runs the connection pool: opens and keeps connections until the task is cancelled or
    /// the service group shuts down gracefully, then closes them. Queries wait for it (they do
    /// not fail), so it must run while the store is used; it runs once per store.
    package func run() async {
        await client.run()
    }

    // MARK: Health

    /// Runs a trivial query within the store's deadline: while the server is unreachable the
    /// pool keeps trying to connect, where a readiness probe needs an answer.
    /// - Throws: `StoreUnavailable` when the database does not answer in time.
    package func checkHealth() async throws {
        _ = try await rows("SELECT 1")
    }

    // MARK: Running statements

    /// Runs one statement on a pooled connection and returns its rows (none for most writes),
    /// within the store's deadline.
    func rows(_ query: PostgresQuery, function: String = #function) async throws -> [PostgresRow] {
        let logger = self.logger
        return try await leased(function: function) { connection in
            try await connection.rows(query, logger: logger)
        }
    }

    /// Runs `body` in one transaction on one pooled connection, within the store's deadline:
    /// committed when `body` returns, rolled back when it throws, and the error `body` threw
    /// is rethrown unchanged (PostgresNIO's own `withTransaction` wraps it, which would hide a
    /// `StoreError`).
    func transaction<Result: Sendable>(
        function: String = #function, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        return try await leased(span: "store.transaction", function: function) { connection in
            _ = try await connection.rows("BEGIN", logger: logger)
            let result: Result
            do {
                result = try await body(connection)
            } catch {
                do {
                    _ = try await connection.rows("ROLLBACK", logger: logger)
                } catch {
                    // A connection that cannot roll back is in an unknown state: drop it
                    // rather than give it back to the pool inside a transaction.
                    try? await connection.close()
                }
                throw error
            }
            // A failed COMMIT ends the transaction on the server (rolled back), so the
            // connection goes back to the pool clean.
            _ = try await connection.rows("COMMIT", logger: logger)
            return result
        }
    }
}

extension PostgresConnection {
    /// Runs one statement and returns its rows. They are collected on the connection's event
    /// loop and handed over once (PostgresNIO's future form): its async row sequence resumes
    /// the caller when the statement's first answer arrives and again for its rows, a thread
    /// hop each.
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
        return try await result.get().rows
    }
}
