import Foundation
import Logging
import SCAServer
import SCAStorageSQLite
import Testing

/// `serve` keeps SQLite's WAL checkpoints off the writer while it runs, and gives the
/// writer its own checkpoints back when it stops.
@Suite("Background WAL checkpoints")
struct BackgroundWALCheckpointsTests {
    @Test("while the service runs the writer checkpoints only past the safety threshold; stopped, at SQLite's default again")
    func thresholdWhileRunning() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-walcp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path)
        let service = BackgroundWALCheckpoints(store: store, interval: .milliseconds(5), logger: Logger(label: "test"))
        let running = Task { await service.run() }
        // The service sets the threshold first thing; wait for it (bounded), not for a time.
        var threshold = try await store.writerCheckpointThreshold()
        for _ in 0..<400 where threshold != SQLiteStore.backgroundWriterCheckpointPages {
            try await Task.sleep(for: .milliseconds(5))
            threshold = try await store.writerCheckpointThreshold()
        }
        #expect(threshold == SQLiteStore.backgroundWriterCheckpointPages)
        running.cancel()
        await running.value
        #expect(try await store.writerCheckpointThreshold() == SQLiteStore.writerCheckpointPages)
    }
}
