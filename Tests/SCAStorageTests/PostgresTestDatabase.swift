import Foundation
import PostgresNIO
import SCAStoragePostgres

/// The PostgreSQL server the PostgreSQL cases run against, named by `SCA_TEST_POSTGRES_URL`
/// (`.ci/run` starts one). Without it those cases are skipped, and say so.
///
/// Every case gets a schema of its own (`search_path` in the store's URL), created empty and
/// dropped afterwards, so cases never see each other's rows, whatever runs at the same time.
enum PostgresTestDatabase {
    static let url: String? = {
        guard let url = ProcessInfo.processInfo.environment["SCA_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }()

    /// Quiet: a store logs each schema step it applies, forty cases over.
    static let logger: Logger = {
        var logger = Logger(label: "sca-storage-tests")
        logger.logLevel = .warning
        return logger
    }()

    struct NotConfigured: Error {}

    /// Runs `body` with the URL of a new, empty schema, which is dropped afterwards.
    static func withFreshSchema(_ body: (_ url: String) async throws -> Void) async throws {
        guard let url else { throw NotConfigured() }
        let schema = "sca_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE SCHEMA \(schema)", url: url)
        do {
            try await body(Self.url(url, searchPath: schema))
        } catch {
            // Best effort: the body's failure is the one worth reporting.
            _ = try? await execute("DROP SCHEMA \(schema) CASCADE", url: url)
            throw error
        }
        try await execute("DROP SCHEMA \(schema) CASCADE", url: url)
    }

    static func url(_ url: String, searchPath schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "search_path=\(schema)"
    }

    /// Runs one statement on a connection of its own (outside any store) and returns its rows.
    @discardableResult
    static func execute(_ sql: String, url: String) async throws -> [PostgresRow] {
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresDatabaseURL(url).connectionConfiguration(), id: 1, logger: logger)
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            try await connection.close()
            return rows
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension PostgresStore {
    /// Runs the pool while `body` runs, then closes it (a server runs it in its service group).
    func withRunning<Result: Sendable>(_ body: (PostgresStore) async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Entered before `body` where the platform allows (PostgresNIO warns otherwise).
            if #available(macOS 26, iOS 26, *) {
                group.addImmediateTask { await self.run() }
            } else {
                group.addTask { await self.run() }
            }
            defer { group.cancelAll() }
            return try await body(self)
        }
    }
}
