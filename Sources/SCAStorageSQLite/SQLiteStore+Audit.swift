import Foundation
import GRDB
import SCACore
import SCAStorage

extension SQLiteStore {
    /// Reading the last link and inserting the next happen in one write transaction; GRDB's
    /// single writer (and `BEGIN IMMEDIATE` across processes) runs appends one after another,
    /// so the chain never forks.
    package func appendAuditEntry(_ draft: AuditEntryDraft) async throws -> AuditEntry {
        try await write { db in try Self.appendAuditEntry(draft, db) }
    }

    /// The append of ``appendAuditEntry(_:)`` inside a caller's write transaction (a proof's,
    /// ``commitProof(_:)``): the single writer still runs it after every earlier append.
    static func appendAuditEntry(_ draft: AuditEntryDraft, _ db: Database) throws -> AuditEntry {
        // An empty table after a cut continues from the cut's last archived entry.
        let last = try db.cachedStatement(sql: "SELECT sequence, hash FROM audit_entries ORDER BY sequence DESC LIMIT 1")
            .fetchOne { (sequence: try $0.value("sequence", as: Int64.self), hash: try $0.value("hash", as: String.self)) }
            ?? newestAuditCut(db).map { (sequence: $0.throughSequence, hash: $0.hash) }
        let entry = AuditEntry(
            sequence: (last?.sequence ?? 0) + 1, draft: draft, prevHash: last?.hash ?? AuditEntry.genesisHash)
        try db.cachedStatement(
            sql: """
                INSERT INTO audit_entries (
                    sequence, time_ms, event, actor, user_id, device_id, challenge_id, session_id,
                    client_address, request_id, outcome, details, prev_hash, hash, personal_digest
                ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(
            arguments: [
                entry.sequence, AuditEntry.milliseconds(draft.time), draft.event, draft.actor, draft.userID,
                draft.deviceID, draft.challengeID, draft.sessionID, draft.clientAddress, draft.requestID,
                draft.outcome, JSONColumn.text(strings: draft.details), entry.prevHash, entry.hash, draft.personalDigest,
            ])
        return entry
    }

    package func auditEntries(after sequence: Int64, since: Date?, limit: Int) async throws -> [AuditEntry] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM audit_entries WHERE sequence > ? AND time_ms >= ?
                ORDER BY sequence LIMIT ?
                """
            ).fetchAll(AuditEntry.self, arguments: [sequence, since.map(AuditEntry.milliseconds) ?? Int64.min, limit])
        }
    }

    package func auditEntries(userID: String, before sequence: Int64?, limit: Int) async throws -> [AuditEntry] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM audit_entries WHERE user_id = ? AND sequence < ?
                ORDER BY sequence DESC LIMIT ?
                """
            ).fetchAll(AuditEntry.self, arguments: [userID, sequence ?? Int64.max, limit])
        }
    }

    /// One statement per combination of conditions (each cached), so SQLite plans each with
    /// the index its conditions have: the user's, the event's or the time's.
    package func auditEntries(matching filter: AuditFilter, _ scan: AuditScan, limit: Int) async throws -> [AuditEntry] {
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        if let userID = filter.userID {
            conditions.append("user_id = ?")
            arguments.append(userID.databaseValue)
        }
        if let event = filter.event {
            conditions.append("event = ?")
            arguments.append(event.databaseValue)
        }
        if let from = filter.from {
            conditions.append("time_ms >= ?")
            arguments.append(AuditEntry.milliseconds(from).databaseValue)
        }
        if let to = filter.to {
            conditions.append("time_ms < ?")
            arguments.append(AuditEntry.milliseconds(to).databaseValue)
        }
        let order: String
        switch scan {
        case .after(let sequence):
            conditions.append("sequence > ?")
            arguments.append(sequence.databaseValue)
            order = "ASC"
        case .before(let sequence):
            conditions.append("sequence < ?")
            arguments.append((sequence ?? Int64.max).databaseValue)
            order = "DESC"
        }
        arguments.append(limit.databaseValue)
        let sql = "SELECT * FROM audit_entries WHERE \(conditions.joined(separator: " AND ")) ORDER BY sequence \(order) LIMIT ?"
        return try await read { [arguments] db in
            try db.cachedStatement(sql: sql).fetchAll(AuditEntry.self, arguments: StatementArguments(arguments))
        }
    }

    package func newestAuditEntry() async throws -> AuditEntry? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM audit_entries ORDER BY sequence DESC LIMIT 1").fetchOne(AuditEntry.self)
        }
    }
}
