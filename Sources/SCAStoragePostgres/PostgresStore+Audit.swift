import Foundation
import PostgresNIO
import SCACore
import SCAStorage

extension PostgresStore {
    /// One transaction that first takes this schema's audit advisory lock, then reads the
    /// last link and inserts the next: appends from every instance on the database run one
    /// after another, so the chain never forks. (A row lock on the last entry would not guard
    /// the empty table; the advisory lock does.)
    public func appendAuditEntry(_ draft: AuditEntryDraft) async throws -> AuditEntry {
        try await transaction { [self] connection in try await appendAuditEntry(draft, connection) }
    }

    /// The append of ``appendAuditEntry(_:)`` inside a caller's transaction (a proof's,
    /// ``commitProof(_:)``): it takes the audit advisory lock there, held until that transaction
    /// ends, so it must be the last lock the transaction takes.
    func appendAuditEntry(_ draft: AuditEntryDraft, _ connection: PostgresConnection) async throws -> AuditEntry {
        try await connection.lockSchema(PostgresMigrations.auditLock, logger: logger)
        let last = try await connection.rows(
            "SELECT sequence, hash FROM audit_entries ORDER BY sequence DESC LIMIT 1", logger: logger
        ).first.map(Columns.init)
        let entry = AuditEntry(
            sequence: (try last?.value("sequence", as: Int64.self) ?? 0) + 1, draft: draft,
            prevHash: try last?.value("hash", as: String.self) ?? AuditEntry.genesisHash)
        let details = try JSONColumn.text(draft.details)
        _ = try await connection.rows(
            """
            INSERT INTO audit_entries (
                sequence, time_ms, event, actor, user_id, device_id, challenge_id, session_id,
                client_address, request_id, outcome, details, prev_hash, hash
            ) VALUES (
                \(entry.sequence), \(AuditEntry.milliseconds(draft.time)), \(draft.event), \(draft.actor),
                \(draft.userID), \(draft.deviceID), \(draft.challengeID), \(draft.sessionID),
                \(draft.clientAddress), \(draft.requestID), \(draft.outcome), \(details),
                \(entry.prevHash), \(entry.hash)
            )
            """,
            logger: logger)
        return entry
    }

    public func auditEntries(after sequence: Int64, since: Date?, limit: Int) async throws -> [AuditEntry] {
        try await rows(
            """
            SELECT * FROM audit_entries WHERE sequence > \(sequence) AND time_ms >= \(since.map(AuditEntry.milliseconds) ?? Int64.min)
            ORDER BY sequence LIMIT \(limit)
            """
        ).map(AuditEntry.init(row:))
    }

    public func newestAuditEntry() async throws -> AuditEntry? {
        try await rows("SELECT * FROM audit_entries ORDER BY sequence DESC LIMIT 1").first.map(AuditEntry.init(row:))
    }
}
