import Foundation
import PostgresNIO
import SCACore
import SCAStorage

extension PostgresStore {
    /// One statement (`sca_append_audit`, schema step `v3-audit-append`): it takes this schema's
    /// audit advisory lock, reads the last link and inserts the next, so appends from every
    /// instance on the database run one after another and the chain never forks. (A row lock on
    /// the last entry would not guard the empty table; the advisory lock does.)
    package func appendAuditEntry(_ draft: AuditEntryDraft) async throws -> AuditEntry {
        let parts = [AuditEntry.canonicalParts(of: draft)]
        let query = try Self.appendQuery([draft], parts: parts)
        let linked = try await leased { [self] connection in try await connection.rows(query, logger: logger) }
        guard let entry = try Self.entries([draft], parts: parts, linkedBy: linked).first else {
            throw PostgresStoreError(reason: "the audit append returned no entry")
        }
        return entry
    }

    /// The appends of ``appendAuditEntry(_:)`` inside a caller's transaction (a proof's,
    /// ``commitProof(_:)``), in order, in one statement: it takes the audit advisory lock there,
    /// held until that transaction ends, so it must be the last lock the transaction takes and
    /// best its last statement.
    func appendAuditEntries(_ drafts: [AuditEntryDraft], _ connection: PostgresConnection) async throws -> [AuditEntry] {
        guard !drafts.isEmpty else { return [] }
        let parts = drafts.map(AuditEntry.canonicalParts)
        let linked = try await connection.rows(try Self.appendQuery(drafts, parts: parts), logger: logger)
        return try Self.entries(drafts, parts: parts, linkedBy: linked)
    }

    /// `SELECT … FROM sca_append_audit(…)` for `drafts` and their canonical `parts`, after
    /// `prefix` (a data-modifying `WITH`, so that one statement writes a row and its entry).
    static func appendQuery(
        _ drafts: [AuditEntryDraft], parts: [AuditEntry.CanonicalParts], prefix: PostgresQuery? = nil
    ) throws -> PostgresQuery {
        var query = prefix ?? ""
        query.sql += " SELECT entry_sequence, entry_prev_hash, entry_hash FROM sca_append_audit("
        try query.binds.append(appendArgument(drafts, parts: parts))
        query.sql += "$\(query.binds.count))"
        return query
    }

    /// The drafts as `sca_append_audit` reads them: a JSON array of their columns and the parts
    /// of their canonical content, written directly (strings escaped as RFC 8785 writes them).
    static func appendArgument(_ drafts: [AuditEntryDraft], parts: [AuditEntry.CanonicalParts]) throws -> String {
        var json: [UInt8] = [UInt8(ascii: "[")]
        json.reserveCapacity(1024 * drafts.count)
        for (index, (draft, parts)) in zip(drafts, parts).enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            let members: [(String, String?)] = [
                ("event", draft.event), ("actor", draft.actor), ("user_id", draft.userID), ("device_id", draft.deviceID),
                ("challenge_id", draft.challengeID), ("session_id", draft.sessionID), ("client_address", draft.clientAddress),
                ("request_id", draft.requestID), ("outcome", draft.outcome), ("details", JSONColumn.text(strings: draft.details)),
                ("personal_digest", draft.personalDigest),
                ("head", Data(parts.head).base64EncodedString()), ("middle", Data(parts.middle).base64EncodedString()),
                ("tail", Data(parts.tail).base64EncodedString()),
            ]
            json += #"{"time_ms":"#.utf8
            json += String(AuditEntry.milliseconds(draft.time)).utf8
            for (name, value) in members {
                json += ",\"\(name)\":".utf8
                if let value { JCS.appendString(value, to: &json) } else { json += "null".utf8 }
            }
            json.append(UInt8(ascii: "}"))
        }
        json.append(UInt8(ascii: "]"))
        return String(decoding: json, as: UTF8.self)
    }

    /// The entries the database linked, each checked against the hash `AuditEntry` computes:
    /// a database that hashed otherwise (or a sequence past 2^53, which the canonical form
    /// writes as a double) fails the append, and its transaction, instead of storing a link
    /// the verifier would reject.
    static func entries(
        _ drafts: [AuditEntryDraft], parts: [AuditEntry.CanonicalParts], linkedBy rows: [PostgresRow]
    ) throws -> [AuditEntry] {
        guard rows.count == drafts.count else {
            throw PostgresStoreError(reason: "the audit append linked \(rows.count) entries for \(drafts.count)")
        }
        return try zip(zip(drafts, parts), rows).map { sent, row in
            let columns = Columns(row)
            let entry = AuditEntry(
                sequence: try columns.value("entry_sequence", as: Int64.self), draft: sent.0,
                prevHash: try columns.value("entry_prev_hash", as: String.self), parts: sent.1)
            guard try columns.value("entry_hash", as: String.self) == entry.hash else {
                throw PostgresStoreError(column: "hash", reason: "of audit entry \(entry.sequence) differs from the canonical hash")
            }
            return entry
        }
    }

    package func auditEntries(after sequence: Int64, since: Date?, limit: Int) async throws -> [AuditEntry] {
        try await rows(
            """
            SELECT * FROM audit_entries WHERE sequence > \(sequence) AND time_ms >= \(since.map(AuditEntry.milliseconds) ?? Int64.min)
            ORDER BY sequence LIMIT \(limit)
            """
        ).map(AuditEntry.init(row:))
    }

    package func auditEntries(userID: String, before sequence: Int64?, limit: Int) async throws -> [AuditEntry] {
        try await rows(
            """
            SELECT * FROM audit_entries WHERE user_id = \(userID) AND sequence < \(sequence ?? Int64.max)
            ORDER BY sequence DESC LIMIT \(limit)
            """
        ).map(AuditEntry.init(row:))
    }

    /// The statement names only the conditions given, so the planner picks the index they
    /// have: the user's, the event's or the time's.
    package func auditEntries(matching filter: AuditFilter, _ scan: AuditScan, limit: Int) async throws -> [AuditEntry] {
        var query: PostgresQuery = "SELECT * FROM audit_entries WHERE TRUE"
        func condition(_ text: String, _ value: some PostgresEncodable) throws {
            try query.binds.append(value)
            query.sql += " AND \(text) $\(query.binds.count)"
        }
        if let userID = filter.userID { try condition("user_id =", userID) }
        if let event = filter.event { try condition("event =", event) }
        if let from = filter.from { try condition("time_ms >=", AuditEntry.milliseconds(from)) }
        if let to = filter.to { try condition("time_ms <", AuditEntry.milliseconds(to)) }
        switch scan {
        case .after(let sequence):
            try condition("sequence >", sequence)
            query.sql += " ORDER BY sequence ASC"
        case .before(let sequence):
            try condition("sequence <", sequence ?? Int64.max)
            query.sql += " ORDER BY sequence DESC"
        }
        query.binds.append(Int64(limit))
        query.sql += " LIMIT $\(query.binds.count)"
        return try await rows(query).map(AuditEntry.init(row:))
    }

    package func newestAuditEntry() async throws -> AuditEntry? {
        try await rows("SELECT * FROM audit_entries ORDER BY sequence DESC LIMIT 1").first.map(AuditEntry.init(row:))
    }
}
