import Foundation
import GRDB
import SCACore
import SCAStorage

extension SQLiteStore {
    /// One write per kind, each bounded by the batch size, so other writers get the lock
    /// between them. Sessions go before challenges: a session names its challenge.
    package func purge(_ plan: RetentionPlan) async throws -> RetentionReport {
        var report = RetentionReport()
        let limit = plan.batchSize
        report.refreshTokens = try await deleted(
            "DELETE FROM refresh_tokens WHERE token_hash IN (SELECT token_hash FROM refresh_tokens WHERE expires_at < ? LIMIT ?)",
            [plan.sessionsEndedBefore.unixSeconds, limit])
        report.sessions = try await deleted(
            """
            DELETE FROM sessions WHERE id IN (
                SELECT s.id FROM sessions s
                WHERE coalesce(s.revoked_at, s.last_used_at) < ? AND s.last_used_at < ?
                AND NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE session_id = s.id AND expires_at >= ?)
                LIMIT ?)
            """,
            [
                plan.sessionsEndedBefore.unixSeconds, plan.sessionsEndedBefore.unixSeconds, plan.now.unixSeconds, limit,
            ])
        report.challenges = try await deleted(
            """
            DELETE FROM challenges WHERE id IN (
                SELECT c.id FROM challenges c WHERE c.expires_at < ?
                AND NOT EXISTS (SELECT 1 FROM consents WHERE challenge_id = c.id)
                AND NOT EXISTS (SELECT 1 FROM operations WHERE challenge_id = c.id)
                AND NOT EXISTS (SELECT 1 FROM sessions WHERE challenge_id = c.id)
                LIMIT ?)
            """, [plan.challengesEndedBefore.unixSeconds, limit])
        report.consumedTokens = try await deleted(
            "DELETE FROM consumed_tokens WHERE jti IN (SELECT jti FROM consumed_tokens WHERE expires_at < ? LIMIT ?)",
            [plan.now.unixSeconds, limit])
        report.rateEvents = try await deleted(
            "DELETE FROM rate_events WHERE rowid IN (SELECT rowid FROM rate_events WHERE expires_at < ? LIMIT ?)",
            [plan.now.unixSeconds, limit])
        report.webhookDeliveries = try await deleted(
            """
            DELETE FROM webhook_deliveries WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE finished_at < ? AND status IN ('delivered', 'abandoned') LIMIT ?)
            """, [plan.deliveriesFinishedBefore.unixSeconds, limit])
        report.activationCodes = try await deleted(
            """
            DELETE FROM activation_codes WHERE lookup_id IN (
                SELECT lookup_id FROM activation_codes WHERE coalesce(used_at, expires_at) < ? AND expires_at < ? LIMIT ?)
            """,
            [plan.activationCodesEndedBefore.unixSeconds, plan.now.unixSeconds, limit])
        report.unknownAddresses = try await deleted(
            """
            DELETE FROM unknown_address_lockouts WHERE key IN (
                SELECT key FROM unknown_address_lockouts
                WHERE failed_attempts = 0 AND temporary_blocks = 0 AND permanently_locked = 0
                AND (locked_until IS NULL OR locked_until < ?) LIMIT ?)
            """, [plan.now.unixSeconds, limit])
        return report
    }

    private func deleted(_ sql: String, _ arguments: StatementArguments) async throws -> Int {
        try await write { db in
            try db.execute(sql: sql, arguments: arguments)
            return db.changesCount
        }
    }

    package func auditCut() async throws -> AuditCut? {
        try await read { db in try Self.newestAuditCut(db) }
    }

    static func newestAuditCut(_ db: Database) throws -> AuditCut? {
        try Row.fetchOne(db, sql: "SELECT * FROM audit_cuts ORDER BY through_sequence DESC LIMIT 1").map {
            AuditCut(
                throughSequence: $0["through_sequence"], hash: $0["hash"], checkpoint: $0["checkpoint"],
                archive: $0["archive"], cutAt: Date(unixSeconds: $0["cut_at"]))
        }
    }

    package func cutAuditTrail(_ cut: AuditCut) async throws -> Int? {
        try await write { db in
            if let newest = try Self.newestAuditCut(db), newest.throughSequence >= cut.throughSequence { return nil }
            let hash = try String.fetchOne(
                db, sql: "SELECT hash FROM audit_entries WHERE sequence = ?", arguments: [cut.throughSequence])
            guard hash == cut.hash else { return nil }
            try db.execute(
                sql: "INSERT INTO audit_cuts (through_sequence, hash, checkpoint, archive, cut_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [cut.throughSequence, cut.hash, cut.checkpoint, cut.archive, cut.cutAt.unixSeconds])
            try db.execute(sql: "DELETE FROM audit_entries WHERE sequence <= ?", arguments: [cut.throughSequence])
            return db.changesCount
        }
    }

    /// An audit entry still holding a personal fact (``AuditEntryDraft/personalFacts``).
    static let holdsPersonalFacts = """
        (client_address IS NOT NULL OR json_extract(details, '$.name') IS NOT NULL
            OR json_extract(details, '$.iban') IS NOT NULL)
        """

    package func eraseUser(id: String, stateKeys: [String]) async throws -> UserErasure? {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [id]) != nil else { return nil }
            var deleted = 0
            func delete(_ sql: String, _ arguments: StatementArguments = [id]) throws {
                try db.execute(sql: sql, arguments: arguments)
                deleted += db.changesCount
            }
            try delete("DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = ?)")
            try delete("DELETE FROM sessions WHERE user_id = ?")
            try delete("DELETE FROM one_time_codes WHERE challenge_id IN (SELECT id FROM challenges WHERE user_id = ?)")
            try delete("DELETE FROM challenges WHERE user_id = ?")
            try delete("DELETE FROM consents WHERE user_id = ?")
            try delete("DELETE FROM operations WHERE user_id = ?")
            try delete("DELETE FROM authorization_grants WHERE user_id = ?")
            try delete("DELETE FROM activation_codes WHERE user_id = ?")
            try delete("DELETE FROM recovery_sheets WHERE user_id = ?")
            try delete("DELETE FROM passkeys WHERE user_id = ?")
            try delete("DELETE FROM devices WHERE user_id = ?")
            try delete("DELETE FROM risk_user_seen WHERE user_id = ?")
            try delete("DELETE FROM risk_user_maxima WHERE user_id = ?")
            for key in stateKeys { try delete("DELETE FROM risk_states WHERE key = ?", [key]) }
            try delete("DELETE FROM users WHERE id = ?")
            // The payment stays (the fraud rate's volume counts it), naming nobody.
            try db.execute(
                sql: """
                    UPDATE risk_payments SET user_id = '', iban = NULL, client_address = NULL, device_id = NULL
                    WHERE user_id = ?
                    """, arguments: [id])
            let payments = db.changesCount
            try db.execute(
                sql: """
                    UPDATE audit_entries SET client_address = NULL, details = json_remove(details, '$.name', '$.iban')
                    WHERE user_id = ? AND personal_digest IS NOT NULL AND \(Self.holdsPersonalFacts)
                    """, arguments: [id])
            let erased = db.changesCount
            let unsealed = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM audit_entries WHERE user_id = ? AND personal_digest IS NULL AND \(Self.holdsPersonalFacts)
                    """, arguments: [id]) ?? 0
            return UserErasure(
                rowsDeleted: deleted, paymentsPseudonymised: payments, auditEntriesErased: erased,
                auditEntriesUnsealed: unsealed)
        }
    }
}
