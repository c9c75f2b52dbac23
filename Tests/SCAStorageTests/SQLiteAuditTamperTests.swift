import Foundation
import GRDB
import SCACore
import SCAStorage
import SCAStorageSQLite
import Testing

/// Someone with the database file changes the audit trail behind the store's back; the
/// chain verifier must name the first entry that no longer fits.
@Suite("SQLite audit trail tampering")
struct SQLiteAuditTamperTests {
    /// A store with five chained entries, and the file's path for tampering.
    private func withTrail(_ body: (SQLiteStore, DatabaseQueue) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            let store = try SQLiteStore(path: path)
            for index in 1...5 {
                _ = try await store.appendAuditEntry(
                    AuditEntryDraft(
                        time: StoreConformance.t0 + Double(index), event: "proof.rejected", actor: "client",
                        userID: "u1", outcome: "rejected", details: ["method": "password"]))
            }
            #expect(AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 100)) == nil)
            // The append-only triggers stop SQL edits; a tamperer with the file drops them.
            let tamperer = try DatabaseQueue(path: path)
            try await tamperer.write { db in
                try db.execute(sql: "DROP TRIGGER audit_entries_no_update; DROP TRIGGER audit_entries_no_delete")
            }
            try await body(store, tamperer)
        }
    }

    private func verify(_ store: SQLiteStore) async throws -> AuditChainBreak? {
        AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 100))
    }

    @Test func triggersRefuseEditsThroughSQL() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            let store = try SQLiteStore(path: path)
            _ = try await store.appendAuditEntry(
                AuditEntryDraft(time: StoreConformance.t0, event: "token.issued", actor: "client", outcome: "success"))
            let other = try DatabaseQueue(path: path)
            await #expect(throws: DatabaseError.self) {
                try await other.write { try $0.execute(sql: "UPDATE audit_entries SET outcome = 'x'") }
            }
            await #expect(throws: DatabaseError.self) {
                try await other.write { try $0.execute(sql: "DELETE FROM audit_entries") }
            }
        }
    }

    @Test func editedEntryIsDetected() async throws {
        try await withTrail { store, tamperer in
            try await tamperer.write { try $0.execute(sql: "UPDATE audit_entries SET outcome = 'accepted' WHERE sequence = 3") }
            #expect(try await verify(store) == .hashMismatch(sequence: 3))
        }
    }

    @Test func editedEntryWithRecomputedHashBreaksTheNextLink() async throws {
        try await withTrail { store, tamperer in
            var entry = try #require(try await store.auditEntries(after: 2, limit: 1).first)
            entry.draft.outcome = "accepted"
            let forged = AuditEntry(sequence: entry.sequence, draft: entry.draft, prevHash: entry.prevHash)
            try await tamperer.write {
                try $0.execute(
                    sql: "UPDATE audit_entries SET outcome = 'accepted', hash = ? WHERE sequence = 3",
                    arguments: [forged.hash])
            }
            #expect(try await verify(store) == .prevHashMismatch(sequence: 4))
        }
    }

    @Test func deletedEntryIsDetected() async throws {
        try await withTrail { store, tamperer in
            try await tamperer.write { try $0.execute(sql: "DELETE FROM audit_entries WHERE sequence = 2") }
            #expect(try await verify(store) == .sequenceGap(expected: 2, found: 3))
        }
    }

    @Test func reorderedEntriesAreDetected() async throws {
        try await withTrail { store, tamperer in
            // Swap the places of entries 2 and 4.
            try await tamperer.write { db in
                try db.execute(sql: "UPDATE audit_entries SET sequence = -2 WHERE sequence = 2")
                try db.execute(sql: "UPDATE audit_entries SET sequence = 2 WHERE sequence = 4")
                try db.execute(sql: "UPDATE audit_entries SET sequence = 4 WHERE sequence = -2")
            }
            let broken = try await verify(store)
            #expect(broken == .hashMismatch(sequence: 2) || broken == .prevHashMismatch(sequence: 2))
        }
    }
}
