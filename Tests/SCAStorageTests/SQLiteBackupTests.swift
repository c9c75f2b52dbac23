import Foundation
import GRDB
import SCACore
import SCAStorage
import SCAStorageSQLite
import Synchronization
import Testing

/// Online backup and restore of the SQLite store with SQLite's backup API: a copy taken while
/// writes go on holds every write answered before it began, whole, and a restore takes only a
/// sound backup of this schema.
@Suite("SQLite backup and restore")
struct SQLiteBackupTests {
    static func entry(_ index: Int) -> AuditEntryDraft {
        AuditEntryDraft(
            time: Date(timeIntervalSince1970: 1_800_000_000 + Double(index)), event: "test.write", actor: "backup-test",
            outcome: "success", details: ["index": String(index)])
    }

    static func sequences(in store: SQLiteStore) async throws -> [Int64] {
        var all: [Int64] = []
        var after: Int64 = 0
        while true {
            let page = try await store.auditEntries(after: after, limit: 500)
            all += page.map(\.sequence)
            guard let last = page.last, page.count == 500 else { return all }
            after = last.sequence
        }
    }

    static func chainBreak(in store: SQLiteStore) async throws -> AuditChainBreak? {
        var verifier = AuditChainVerifier()
        for entry in try await store.auditEntries(after: 0, limit: 100_000) {
            if let broken = verifier.check(entry) { return broken }
        }
        return nil
    }

    @Test("a backup under a load of writes holds every write answered before it began, its chain intact; it restores as it was")
    func backupUnderLoad() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path)
            let answered = Mutex<[Int64]>([])
            let writes = 600
            let load = Task {
                for index in 0..<writes {
                    let written = try await store.appendAuditEntry(Self.entry(index))
                    answered.withLock { $0.append(written.sequence) }
                }
            }
            // The backup starts while the writes go on.
            while answered.withLock({ $0.count }) < 100 { await Task.yield() }
            let beforeBackup = answered.withLock { $0 }
            let backup = directory.appendingPathComponent("backup.sqlite").path
            try await store.backup(to: backup)
            try await load.value
            let attributes = try FileManager.default.attributesOfItem(atPath: backup)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            let restoredPath = directory.appendingPathComponent("restored/sca.sqlite").path
            try SQLiteStore.restore(from: backup, to: restoredPath)
            let restored = try SQLiteStore(path: restoredPath)
            let kept = try await Self.sequences(in: restored)
            #expect(Set(beforeBackup).isSubset(of: Set(kept)), "every write answered before the backup began")
            #expect(kept == Array(1...Int64(kept.count)), "a prefix of the chain, nothing by half")
            #expect(try await Self.chainBreak(in: restored) == nil)
            #expect(try await Self.sequences(in: store).count == writes)

            // A backup never overwrites; a restore takes only a sound backup of this schema and
            // leaves the database it would replace untouched otherwise.
            await #expect(throws: SQLiteBackupError.self) { try await store.backup(to: backup) }
            let garbage = directory.appendingPathComponent("garbage.sqlite").path
            try Data(repeating: 0x42, count: 8_192).write(to: URL(fileURLWithPath: garbage))
            #expect(throws: SQLiteBackupError.self) { try SQLiteStore.restore(from: garbage, to: restoredPath) }
            let foreign = directory.appendingPathComponent("foreign.sqlite").path
            let other = try DatabaseQueue(path: foreign)
            try await other.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
            try other.close()
            #expect(throws: SQLiteBackupError.self) { try SQLiteStore.restore(from: foreign, to: restoredPath) }
            #expect(try await Self.sequences(in: restored) == kept)
        }
    }

    @Test("a backup of a newer version's schema is refused")
    func newerSchemaRefused() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            do {
                let store = try SQLiteStore(path: path)
                try await store.backup(to: directory.appendingPathComponent("plain.sqlite").path)
            }
            let newer = try DatabaseQueue(path: directory.appendingPathComponent("plain.sqlite").path)
            try await newer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-future')") }
            try newer.close()
            #expect(throws: SQLiteBackupError.self) {
                try SQLiteStore.restore(from: directory.appendingPathComponent("plain.sqlite").path, to: path + ".other")
            }
        }
    }
}
