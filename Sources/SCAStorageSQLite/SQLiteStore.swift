import Foundation
import GRDB
import SCAStorage
import Synchronization

/// The embedded ``SCAStore``: one SQLite file in WAL mode, through GRDB.
///
/// Each protocol method is one GRDB transaction (``read(_:)`` or ``write(_:)``, which run it on
/// the calling thread unless a commit must wait for the disk). GRDB sends every write through a
/// single writer connection and opens write transactions with `BEGIN IMMEDIATE`, so the read and
/// the write of a read-modify-write cannot interleave with another write, whether it comes
/// from this process or from another process on the same file (which waits on the busy
/// timeout instead of failing at once).
///
/// Dates are stored as `REAL` unix seconds (`timeIntervalSince1970`), not as GRDB's default
/// millisecond text, so that sub-second instants round-trip and compare in SQL as numbers.
package final class SQLiteStore: SCAStore {
    /// A `DatabasePool` for a file, a `DatabaseQueue` in memory. Both are `Sendable`, which
    /// makes this class `Sendable` without any unchecked promise.
    let writer: any DatabaseWriter
    /// The database file, nil in memory.
    let path: String?
    /// A connection of its own for WAL checkpoints (``checkpointWAL()``); nil in memory.
    let checkpointer: DatabaseQueue?
    /// Whether a commit syncs the WAL (`synchronous = FULL`): such writes run off the calling
    /// thread (``write(_:)``).
    let commitsWaitForDisk: Bool
    /// Write transactions committed through this store (``committedWrites``).
    let commits = Atomic<Int>(0)
    /// Where each transaction's span goes (``read(_:function:)``); `.off` records none.
    let tracing: TraceRecorder

    /// Opens (creating if needed) the database file at `path` and brings its schema up to date.
    ///
    /// - Parameters:
    ///   - path: The SQLite file. Its parent directory is created when missing.
    ///   - synchronous: when commits wait for the disk (``SQLiteSynchronous``); `normal` keeps
    ///     commits through a process crash, `full` through a power loss too.
    ///   - trace: called with the text of every SQL statement run, on every connection (nil:
    ///     none, the default). For measuring, e.g. the transactions a flow opens.
    ///   - tracing: records a span for each transaction (`store.read`, `store.write`), a child
    ///     of the caller's; `.off` (the default) records none.
    /// - Throws: A file-system error when the directory cannot be created, or a GRDB
    ///   `DatabaseError` when the file cannot be opened or migrated.
    package convenience init(
        path: String, synchronous: SQLiteSynchronous = .normal, trace: (@Sendable (String) -> Void)? = nil,
        tracing: TraceRecorder = .off
    ) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Self.configuration()
        if let trace {
            configuration.prepareDatabase { db in db.trace(options: .statement) { trace("\($0)") } }
        }
        // A pool always runs in WAL mode: readers do not wait for the writer.
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets NORMAL on the writer when it turns WAL on, after `prepareDatabase`: the
        // stricter mode is set here, on the one writer connection, which lives as long as the pool.
        if synchronous != .normal {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = \(synchronous.pragmaValue)")
            }
        }
        var checkpointing = Configuration()
        checkpointing.label = "SCAStore.checkpoints"
        try self.init(
            writer: pool, path: path, checkpointer: DatabaseQueue(path: path, configuration: checkpointing),
            commitsWaitForDisk: synchronous == .full, tracing: tracing)
    }

    /// The `synchronous` setting in force on the writer connection, read from SQLite itself.
    /// - Returns: nil for a value this store never sets (`OFF`, `EXTRA`).
    package func synchronous() async throws -> SQLiteSynchronous? {
        let value = try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        return SQLiteSynchronous.allCases.first { $0.pragmaValue == value }
    }

    /// A private database that lives in memory and disappears with the store; for tools and
    /// quick experiments. Tests of the backend itself should use a file.
    ///
    /// - Throws: A GRDB `DatabaseError` when the database cannot be created or migrated.
    package static func inMemory() throws -> SQLiteStore {
        try SQLiteStore(
            writer: DatabaseQueue(configuration: configuration()), path: nil, checkpointer: nil, commitsWaitForDisk: false,
            tracing: .off)
    }

    private init(
        writer: any DatabaseWriter, path: String?, checkpointer: DatabaseQueue?, commitsWaitForDisk: Bool, tracing: TraceRecorder
    ) throws {
        // Migrating is idempotent: applied steps are recorded and skipped on the next open.
        try SQLiteMigrations.migrator.migrate(writer)
        self.writer = writer
        self.path = path
        self.checkpointer = checkpointer
        self.commitsWaitForDisk = commitsWaitForDisk
        self.tracing = tracing
    }

    /// The identifiers of the schema steps, in order. Another backend of the same schema uses
    /// the same identifiers, so that a database's history reads alike in both.
    package static let migrationIDs: [String] = SQLiteMigrations.identifiers

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        // Several server instances may share one file; a writer waits for another instead of
        // failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(5)
        configuration.foreignKeysEnabled = true
        configuration.label = "SCAStore"
        return configuration
    }

    // MARK: Health

    /// Checks the file is still where it was opened and runs a trivial query. (Open connections
    /// keep answering after the file is deleted, while every new write would be lost with it.)
    /// - Throws: `CocoaError.fileNoSuchFile` when the file is gone, a GRDB `DatabaseError` when the
    ///   database cannot be read.
    package func checkHealth() async throws {
        if let path, !FileManager.default.fileExists(atPath: path) {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        _ = try await read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT 1"))
        }
    }
}
