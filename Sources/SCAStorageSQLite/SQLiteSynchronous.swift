/// When SQLite waits for the disk: its `synchronous` setting, on the writer connection.
///
/// Both modes keep every committed write through a crash of the process (`kill -9`): in WAL
/// mode a commit has written its frames to the WAL file, in the operating system's cache, before
/// it returns, and the next open replays them. They differ on a power loss or a crash of the
/// operating system.
package enum SQLiteSynchronous: String, Sendable, CaseIterable {
    /// `PRAGMA synchronous = NORMAL` (the default, GRDB's in WAL mode): the WAL is synced to the
    /// disk at each checkpoint, not at each commit. A power loss may undo the last commits
    /// since the last checkpoint; the file stays consistent (never a half transaction).
    case normal
    /// `PRAGMA synchronous = FULL`: the WAL is synced at every commit, so a commit that
    /// returned survives a power loss too, at the cost of an fsync per write transaction.
    case full

    /// The value `PRAGMA synchronous` reads back.
    var pragmaValue: Int {
        switch self {
        case .normal: 1
        case .full: 2
        }
    }
}
