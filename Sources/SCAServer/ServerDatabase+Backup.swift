import Foundation
import SCAEngine
import SCAStorageSQLite

// `sca-server backup` and `restore`: the SQLite store only. PostgreSQL has its own tools
// (`pg_dump`, point-in-time recovery), which docs/operations.md describes.
extension ServerDatabase {
    /// Writes a consistent copy of the configured SQLite store to `destination` while a server
    /// may be serving on it.
    /// - Throws: `ConfigurationError` for a PostgreSQL store or a data directory without a
    ///   database; `SQLiteBackupError` when `destination` exists.
    package static func backup(configuration: ServerConfiguration, to destination: String) async throws {
        guard configuration.databaseURL == nil else {
            throw ConfigurationError("the store is PostgreSQL: back it up with pg_dump or point-in-time recovery (docs/operations.md)")
        }
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw ConfigurationError("no database at \(configuration.databasePath)")
        }
        let store = try SQLiteStore(path: configuration.databasePath, synchronous: configuration.sqliteSynchronous)
        try await store.backup(to: destination)
    }

    /// Puts a backup in place of the configured SQLite store; no server may run on it.
    /// - Parameter replacing: the data directory may hold a database already, which is replaced.
    /// - Throws: `ConfigurationError` for a PostgreSQL store, or a database already there
    ///   without `replacing`; `SQLiteBackupError` for a file that is no sound backup.
    package static func restore(configuration: ServerConfiguration, from source: String, replacing: Bool) throws {
        guard configuration.databaseURL == nil else {
            throw ConfigurationError("the store is PostgreSQL: restore it with pg_restore or point-in-time recovery (docs/operations.md)")
        }
        if FileManager.default.fileExists(atPath: configuration.databasePath), !replacing {
            throw ConfigurationError(
                "\(configuration.dataDirectory) holds a database already: stop its server, then pass --force to replace it")
        }
        try createDataDirectory(configuration)
        try SQLiteStore.restore(from: source, to: configuration.databasePath)
    }
}
