import Logging
import SCAEngine
import SCAServer
import SCAStorage
import SCAStoragePostgres

extension TestServer {
    /// Runs `body` against a test server on a fresh PostgreSQL schema (dropped afterwards), with
    /// its own server key: the PostgreSQL twin of a flow test that `TestServer(customize).run`
    /// runs on SQLite.
    /// - Parameter tracing: where the store's and the server's spans go; none otherwise.
    static func runOnPostgres(
        _ customize: @escaping (inout ServerConfiguration) -> Void = { _ in }, tracing: TraceRecorder = .off,
        _ body: @escaping @Sendable (APIClient) async throws -> Void
    ) async throws {
        try await ServerPair.withSchema { databaseURL, _ in
            let postgres = try await PostgresStore.connect(
                url: databaseURL, tracing: tracing, logger: Logger(label: "sca-server"))
            try await ServerDatabase(store: postgres, services: [postgres]).withRunning { store in
                try await TestServer(store: store, tracing: tracing) {
                    customize(&$0)
                    $0.serverKey = ServerPair.newServerKey()
                }.run(body)
            }
        }
    }
}
