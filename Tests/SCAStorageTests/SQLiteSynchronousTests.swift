import Foundation
import SCAStorageSQLite
import Testing

/// What a commit waits for, read back from SQLite itself: `NORMAL` in WAL mode by default (a
/// commit survives a crash of the process, the WAL is synced at checkpoints), `FULL` on request
/// (synced at every commit, so a commit survives a power loss too).
@Suite("SQLite synchronous setting")
struct SQLiteSynchronousTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sca-sync-\(UUID().uuidString)/sca.sqlite").path
    }

    @Test("a store opens with NORMAL by default and FULL when asked, on the connection that writes")
    func modes() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(try await SQLiteStore(path: path).synchronous() == .normal)
        let strict = try SQLiteStore(path: path, synchronous: .full)
        #expect(try await strict.synchronous() == .full)
        // The setting belongs to the connection, not the file: the next open decides again.
        #expect(try await SQLiteStore(path: path).synchronous() == .normal)
    }
}
