import Foundation
import Logging
import SCAEngine
import SCAStorage
import SCAStoragePostgres
import SCAStorageSQLite
import ServiceLifecycle

/// The store a server runs on, and what has to run for it to answer.
///
/// SQLite answers as soon as it is open. PostgreSQL answers while its connection pool runs:
/// the server puts ``services`` in its `ServiceGroup` before the services that query the
/// store, so that a graceful shutdown closes the pool last; a command that uses the store once
/// wraps itself in ``withRunning(_:)``.
package struct ServerDatabase: Sendable {
    package let store: any SCAStore
    /// The PostgreSQL connection pool; SQLite's background WAL checkpoints.
    package let services: [any Service]

    /// A store opened elsewhere, with the services it needs running.
    package init(store: any SCAStore, services: [any Service]) {
        self.store = store
        self.services = services
    }

    /// Opens PostgreSQL at `databaseURL` when configured (migrated, pool not yet running),
    /// SQLite under the data directory otherwise.
    /// - Parameter tracing: where the store's transaction spans go; `.off` records none.
    /// - Throws: `ConfigurationError` for unusable settings, or the store's error.
    package static func open(
        configuration: ServerConfiguration, tracing: TraceRecorder = .off, logger: Logger
    ) async throws -> ServerDatabase {
        try configuration.validate()
        try createDataDirectory(configuration)
        if let databaseURL = configuration.databaseURL {
            let postgres = try await PostgresStore.connect(
                url: databaseURL, timeout: .seconds(configuration.databaseTimeout), tracing: tracing, logger: logger)
            return ServerDatabase(store: postgres, services: [postgres])
        }
        let sqlite = try SQLiteStore(
            path: configuration.databasePath, synchronous: configuration.sqliteSynchronous, tracing: tracing)
        return ServerDatabase(
            store: sqlite,
            services: [BackgroundWALCheckpoints(store: sqlite, interval: .seconds(configuration.sqliteCheckpointInterval), logger: logger)])
    }

    /// Runs ``services`` while `body` runs with the store, then stops them.
    package func withRunning<Result: Sendable>(_ body: (any SCAStore) async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services {
                // Entered before `body` starts where the platform allows: PostgresNIO warns
                // about a query that comes before its pool runs.
                if #available(macOS 26, iOS 26, *) {
                    group.addImmediateTask { try await service.run() }
                } else {
                    group.addTask { try await service.run() }
                }
            }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }

    /// Creates the data directory if missing. It holds the database, the server key and live
    /// codes: owner only.
    static func createDataDirectory(_ configuration: ServerConfiguration) throws {
        guard !FileManager.default.fileExists(atPath: configuration.dataDirectory) else { return }
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }
}
