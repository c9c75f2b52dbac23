import Foundation
import SCACore
import SCAStorage
import SCAStorageSQLite
import Testing

/// WAL checkpoints on a connection of their own: the writer's threshold is read back
/// from SQLite, and a checkpoint copies every page the WAL holds.
@Suite("SQLite WAL checkpoints")
struct SQLiteCheckpointTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sca-checkpoint-\(UUID().uuidString)/sca.sqlite").path
    }

    @Test("the writer checkpoints at SQLite's default until told otherwise; a checkpoint of its own copies the whole WAL")
    func checkpointOffTheWriter() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try SQLiteStore(path: path)
        #expect(try await store.writerCheckpointThreshold() == SQLiteStore.writerCheckpointPages)
        try await store.setWriterCheckpointThreshold(pages: SQLiteStore.backgroundWriterCheckpointPages)
        #expect(try await store.writerCheckpointThreshold() == SQLiteStore.backgroundWriterCheckpointPages)

        _ = try await store.checkpointWAL()
        for index in 0..<40 {
            _ = try await store.appendAuditEntry(
                AuditEntryDraft(time: StoreConformance.t0, event: "token.issued", actor: "client", outcome: "success", details: ["n": "\(index)"]))
        }
        let checkpoint = try #require(try await store.checkpointWAL())
        #expect(checkpoint.walPages > 0)
        #expect(checkpoint.checkpointedPages == checkpoint.walPages)
        // Nothing written since: nothing left to copy, and the entries read as before.
        let again = try #require(try await store.checkpointWAL())
        #expect(again.checkpointedPages == again.walPages)
        #expect(try await store.auditEntries(after: 0, limit: 100).count == 40)
    }

    @Test("committedWrites counts the write transactions that committed: not reads, not a write that failed")
    func committedWrites() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try SQLiteStore(path: path)
        let opened = store.committedWrites
        let draft = AuditEntryDraft(time: StoreConformance.t0, event: "token.issued", actor: "client", outcome: "success", details: [:])
        _ = try await store.appendAuditEntry(draft)
        _ = try await store.appendAuditEntry(draft)
        #expect(store.committedWrites == opened + 2)
        _ = try await store.auditEntries(after: 0, limit: 10)
        #expect(store.committedWrites == opened + 2)
        let challenge = StoreConformance(store: store).makeChallenge(userID: nil)
        try await store.insertChallenge(challenge)
        await #expect(throws: StoreError.conflict("id")) { try await store.insertChallenge(challenge) }
        #expect(store.committedWrites == opened + 3)
    }

    @Test("a store call from a cancelled task throws CancellationError and writes nothing", arguments: [SQLiteSynchronous.normal, .full])
    func cancelledCaller(mode: SQLiteSynchronous) async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let store = try SQLiteStore(path: path, synchronous: mode)
        let draft = AuditEntryDraft(time: StoreConformance.t0, event: "token.issued", actor: "client", outcome: "success", details: [:])
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            _ = try await store.appendAuditEntry(draft)
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(try await store.auditEntries(after: 0, limit: 10).isEmpty)
        #expect(store.committedWrites == 0)
    }

    @Test("a store in memory has no WAL to checkpoint")
    func inMemory() async throws {
        #expect(try await SQLiteStore.inMemory().checkpointWAL() == nil)
    }
}
