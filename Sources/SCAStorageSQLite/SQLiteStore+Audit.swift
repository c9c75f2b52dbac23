import Foundation
import GRDB
import SCACore
import SCAStorage

extension SQLiteStore {
    /// Reading the last link and inserting the next happen in one write transaction; GRDB's
    /// single writer (and `BEGIN IMMEDIATE` across processes) runs appends one after another,
    /// so the chain never forks.
    public func appendAuditEntry(_ draft: AuditEntryDraft) async throws -> AuditEntry {
        try await writer.write { db in try Self.appendAuditEntry(draft, db) }
    }

    /// The append of ``appendAuditEntry(_:)`` inside a caller's write transaction (a proof's,
    /// ``commitProof(_:)``): the single writer still runs it after every earlier append.
    static func appendAuditEntry(_ draft: AuditEntryDraft, _ db: Database) throws -> AuditEntry {
        let last = try Row.fetchOne(db.cachedStatement(sql: "SELECT sequence, hash FROM audit_entries ORDER BY sequence DESC LIMIT 1"))
            .map(Columns.init)
        let entry = AuditEntry(
            sequence: (try last?.value("sequence", as: Int64.self) ?? 0) + 1, draft: draft,
            prevHash: try last?.value("hash", as: String.self) ?? AuditEntry.genesisHash)
        try db.cachedStatement(
            sql: """
                INSERT INTO audit_entries (
                    sequence, time_ms, event, actor, user_id, device_id, challenge_id, session_id,
                    client_address, request_id, outcome, details, prev_hash, hash
                ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(
            arguments: [
                entry.sequence, AuditEntry.milliseconds(draft.time), draft.event, draft.actor, draft.userID,
                draft.deviceID, draft.challengeID, draft.sessionID, draft.clientAddress, draft.requestID,
                draft.outcome, JSONColumn.text(strings: draft.details), entry.prevHash, entry.hash,
            ])
        return entry
    }

    public func auditEntries(after sequence: Int64, since: Date?, limit: Int) async throws -> [AuditEntry] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT * FROM audit_entries WHERE sequence > ? AND time_ms >= ?
                    ORDER BY sequence LIMIT ?
                    """),
                arguments: [sequence, since.map(AuditEntry.milliseconds) ?? Int64.min, limit]
            )
            .map(AuditEntry.init(row:))
        }
    }

    public func newestAuditEntry() async throws -> AuditEntry? {
        try await writer.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM audit_entries ORDER BY sequence DESC LIMIT 1")).map(AuditEntry.init(row:))
        }
    }
}
