import GRDB

extension SQLiteStore {
    /// What one WAL checkpoint found and did, in pages.
    package struct WALCheckpoint: Sendable, Equatable {
        /// Pages in the WAL file when the checkpoint ran.
        package var walPages: Int
        /// Of those, the pages now copied into the database file.
        package var checkpointedPages: Int
    }

    /// The WAL size at which the writer checkpoints by itself, in pages: SQLite's default.
    package static let writerCheckpointPages = 1000
    /// The writer's own threshold while checkpoints run in the background: a safety net, for a
    /// background that falls behind or stops (about 40 MB of WAL at 4 KiB pages).
    package static let backgroundWriterCheckpointPages = 10_000

    /// Copies what the WAL holds into the database file without waiting for anyone (SQLite's
    /// `PASSIVE` mode), on a connection of its own.
    ///
    /// A checkpoint syncs the WAL and the database file to the disk. Run by the writer, as SQLite
    /// does after the commit that takes the WAL past its threshold, that sync holds every write
    /// queued behind it, for as long as the disk takes (up to 0.4 s seen on this machine's disk:
    /// the p99 of a flow). Run here, writes go on meanwhile.
    /// - Returns: nil for a store in memory, which has no WAL.
    package func checkpointWAL() async throws -> WALCheckpoint? {
        guard let checkpointer else { return nil }
        return try await checkpointer.writeWithoutTransaction { db in
            // The first column says whether it was blocked (never, in PASSIVE mode).
            try db.makeStatement(sql: "PRAGMA wal_checkpoint(PASSIVE)").fetchOne { columns in
                WALCheckpoint(walPages: Int(try columns.integer("log")), checkpointedPages: Int(try columns.integer("checkpointed")))
            }
        }
    }

    /// Sets the WAL size, in pages, at which the writer checkpoints by itself after a commit.
    package func setWriterCheckpointThreshold(pages: Int) async throws {
        try await writer.writeWithoutTransaction { db in
            _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = \(pages)")
        }
    }

    /// The writer's threshold in force, read from SQLite.
    package func writerCheckpointThreshold() async throws -> Int? {
        try await writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
    }
}
