import Foundation
import GRDB
import SCAStorage

/// Why a backup or a restore did not happen; nothing was changed.
package struct SQLiteBackupError: Error, CustomStringConvertible, Equatable {
    package let description: String
}

// Online backup and restore with SQLite's backup API, never a file copy: a copied file can catch
// the database between two writes, or miss what is still in its write-ahead log.
extension SQLiteStore {
    /// Copies the database into a new file at `destination` (readable by its owner only) while
    /// the store keeps serving. The copy reads one snapshot, a read transaction, which in WAL
    /// mode never holds the writer back: every write committed before the backup began is in
    /// it, and no write is in it by half.
    /// - Throws: ``SQLiteBackupError`` when `destination` exists or this store is in memory;
    ///   GRDB's error when a file cannot be written.
    package func backup(to destination: String) async throws {
        guard path != nil else { throw SQLiteBackupError(description: "a store in memory has no file to back up") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw SQLiteBackupError(description: "\(destination) exists: a backup never overwrites a file")
        }
        // Written beside its final name, then renamed: a backup cut short is never taken for one.
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        let source = writer
        try await Task.detached {
            let copy = try DatabaseQueue(path: partial)
            do {
                try source.backup(to: copy)
                try copy.close()
            } catch {
                try? copy.close()
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
        }.value
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
        try FileManager.default.moveItem(atPath: partial, toPath: destination)
    }

    /// Puts the backup at `source` in place of the database file at `path`, which no server may
    /// have open. The backup is checked first (SQLite's integrity check, and a schema this
    /// version knows), then copied with the backup API beside `path` and renamed over it, the
    /// old database's write-ahead log removed with it so none of it is replayed onto the copy.
    /// - Throws: ``SQLiteBackupError`` for a file that is no sound backup of this schema
    ///   (`path` is then untouched); GRDB's or the file system's error.
    package static func restore(from source: String, to path: String) throws {
        guard FileManager.default.fileExists(atPath: source) else { throw SQLiteBackupError(description: "no file at \(source)") }
        var readOnly = Configuration()
        readOnly.readonly = true
        let backup: DatabaseQueue
        let applied: [String]
        do {
            backup = try DatabaseQueue(path: source, configuration: readOnly)
            let (integrity, identifiers) = try backup.read { db in
                (
                    try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                    try db.tableExists("grdb_migrations")
                        ? String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
                )
            }
            guard integrity == "ok" else { throw SQLiteBackupError(description: "\(source) is damaged: \(integrity ?? "no answer")") }
            applied = identifiers
        } catch let error as SQLiteBackupError {
            throw error
        } catch {
            throw SQLiteBackupError(description: "\(source) is not an SQLite database")
        }
        guard !applied.isEmpty else { throw SQLiteBackupError(description: "\(source) is not a backup of this server's store") }
        let unknown = Set(applied).subtracting(SQLiteMigrations.identifiers)
        guard unknown.isEmpty else {
            throw SQLiteBackupError(
                description: "\(source) comes from a newer version (schema steps \(unknown.sorted().joined(separator: ", "))): restore it with that version")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let partial = path + ".restoring"
        try? FileManager.default.removeItem(atPath: partial)
        let copy = try DatabaseQueue(path: partial)
        try backup.backup(to: copy)
        try copy.close()
        try backup.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
        for leftover in [path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: leftover) }
        guard rename(partial, path) == 0 else {
            throw SQLiteBackupError(description: "\(partial) could not be renamed to \(path): errno \(errno)")
        }
    }
}
