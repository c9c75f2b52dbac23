import Foundation
import PostgresNIO
import SCACore
import SCAStorage

extension PostgresStore {
    /// One statement per kind, each bounded by the batch size; `SKIP LOCKED` leaves rows
    /// another instance's pass (or a request) holds to it. Sessions go before challenges: a
    /// session names its challenge.
    package func purge(_ plan: RetentionPlan) async throws -> RetentionReport {
        var report = RetentionReport()
        let limit = plan.batchSize
        let challengesBefore = plan.challengesEndedBefore.unixSeconds
        let sessionsBefore = plan.sessionsEndedBefore.unixSeconds
        let now = plan.now.unixSeconds
        report.refreshTokens = try await count(
            """
            WITH gone AS (DELETE FROM refresh_tokens WHERE token_hash IN (
                SELECT token_hash FROM refresh_tokens WHERE expires_at < \(sessionsBefore)
                LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.sessions = try await count(
            """
            WITH gone AS (DELETE FROM sessions WHERE id IN (
                SELECT s.id FROM sessions s
                WHERE coalesce(s.revoked_at, s.last_used_at) < \(sessionsBefore) AND s.last_used_at < \(sessionsBefore)
                AND NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE session_id = s.id AND expires_at >= \(now))
                LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.challenges = try await count(
            """
            WITH gone AS (DELETE FROM challenges WHERE id IN (
                SELECT c.id FROM challenges c WHERE c.expires_at < \(challengesBefore)
                AND NOT EXISTS (SELECT 1 FROM consents WHERE challenge_id = c.id)
                AND NOT EXISTS (SELECT 1 FROM operations WHERE challenge_id = c.id)
                AND NOT EXISTS (SELECT 1 FROM sessions WHERE challenge_id = c.id)
                LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.consumedTokens = try await count(
            """
            WITH gone AS (DELETE FROM consumed_tokens WHERE jti IN (
                SELECT jti FROM consumed_tokens WHERE expires_at < \(now) LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.rateEvents = try await count(
            """
            WITH gone AS (DELETE FROM rate_events WHERE ctid IN (
                SELECT ctid FROM rate_events WHERE expires_at < \(now) LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.webhookDeliveries = try await count(
            """
            WITH gone AS (DELETE FROM webhook_deliveries WHERE id IN (
                SELECT id FROM webhook_deliveries
                WHERE finished_at < \(plan.deliveriesFinishedBefore.unixSeconds) AND status IN ('delivered', 'abandoned')
                LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.activationCodes = try await count(
            """
            WITH gone AS (DELETE FROM activation_codes WHERE lookup_id IN (
                SELECT lookup_id FROM activation_codes
                WHERE coalesce(used_at, expires_at) < \(plan.activationCodesEndedBefore.unixSeconds) AND expires_at < \(now)
                LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        report.unknownAddresses = try await count(
            """
            WITH gone AS (DELETE FROM unknown_address_lockouts WHERE key IN (
                SELECT key FROM unknown_address_lockouts
                WHERE failed_attempts = 0 AND temporary_blocks = 0 AND NOT permanently_locked
                AND (locked_until IS NULL OR locked_until < \(now))
                LIMIT \(limit) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*) AS n FROM gone
            """)
        return report
    }

    private func count(_ query: PostgresQuery) async throws -> Int {
        try await rows(query).first.map { try Columns($0).value("n", as: Int.self) } ?? 0
    }

    package func auditCut() async throws -> AuditCut? {
        try await rows("SELECT * FROM audit_cuts ORDER BY through_sequence DESC LIMIT 1").first.map(Self.auditCut)
    }

    static func auditCut(_ row: PostgresRow) throws -> AuditCut {
        let columns = Columns(row)
        return AuditCut(
            throughSequence: try columns.value("through_sequence"), hash: try columns.value("hash"),
            checkpoint: try columns.value("checkpoint"), archive: try columns.value("archive"),
            cutAt: Date(unixSeconds: try columns.value("cut_at")))
    }

    /// Under the audit advisory lock, so no append links to an entry while it leaves.
    package func cutAuditTrail(_ cut: AuditCut) async throws -> Int? {
        try await transaction { [self] connection in
            try await connection.lockSchema(PostgresMigrations.auditLock, logger: logger)
            let newest = try await connection.rows(
                "SELECT * FROM audit_cuts ORDER BY through_sequence DESC LIMIT 1", logger: logger
            ).first.map(Self.auditCut)
            if let newest, newest.throughSequence >= cut.throughSequence { return nil }
            let hash = try await connection.rows(
                "SELECT hash FROM audit_entries WHERE sequence = \(cut.throughSequence)", logger: logger
            ).first.map { try Columns($0).value("hash", as: String.self) }
            guard hash == cut.hash else { return nil }
            _ = try await connection.rows(
                """
                INSERT INTO audit_cuts (through_sequence, hash, checkpoint, archive, cut_at)
                VALUES (\(cut.throughSequence), \(cut.hash), \(cut.checkpoint), \(cut.archive), \(cut.cutAt.unixSeconds))
                """, logger: logger)
            let gone = try await connection.rows(
                """
                WITH gone AS (DELETE FROM audit_entries WHERE sequence <= \(cut.throughSequence) RETURNING 1)
                SELECT count(*) AS n FROM gone
                """, logger: logger)
            return try gone.first.map { try Columns($0).value("n", as: Int.self) } ?? 0
        }
    }

    package func eraseUser(id: String, stateKeys: [String]) async throws -> UserErasure? {
        try await transaction { [self] connection in
            let found = try await connection.rows("SELECT id FROM users WHERE id = \(id) FOR UPDATE", logger: logger)
            guard !found.isEmpty else { return nil }
            let deletions: [PostgresQuery] = [
                "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(id)) RETURNING 1",
                "DELETE FROM sessions WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM one_time_codes WHERE challenge_id IN (SELECT id FROM challenges WHERE user_id = \(id)) RETURNING 1",
                "DELETE FROM challenges WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM consents WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM operations WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM authorization_grants WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM activation_codes WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM recovery_sheets WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM passkeys WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM devices WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM risk_user_seen WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM risk_user_maxima WHERE user_id = \(id) RETURNING 1",
                "DELETE FROM risk_states WHERE key = ANY(\(stateKeys)) RETURNING 1",
                "DELETE FROM users WHERE id = \(id) RETURNING 1",
            ]
            var deleted = 0
            for deletion in deletions { deleted += try await connection.rows(deletion, logger: logger).count }
            // The payment stays (the fraud rate's volume counts it), naming nobody.
            let payments = try await connection.rows(
                """
                UPDATE risk_payments SET user_id = '', iban = NULL, client_address = NULL, device_id = NULL
                WHERE user_id = \(id) RETURNING 1
                """, logger: logger
            ).count
            let erased = try await connection.rows(
                """
                UPDATE audit_entries SET client_address = NULL, details = (details::jsonb - 'name' - 'iban')::text
                WHERE user_id = \(id) AND personal_digest IS NOT NULL
                AND (client_address IS NOT NULL OR details::jsonb ?| ARRAY['name', 'iban'])
                RETURNING 1
                """, logger: logger
            ).count
            let unsealed = try await connection.rows(
                """
                SELECT count(*) AS n FROM audit_entries WHERE user_id = \(id) AND personal_digest IS NULL
                AND (client_address IS NOT NULL OR details::jsonb ?| ARRAY['name', 'iban'])
                """, logger: logger
            ).first.map { try Columns($0).value("n", as: Int.self) } ?? 0
            return UserErasure(
                rowsDeleted: deleted, paymentsPseudonymised: payments, auditEntriesErased: erased,
                auditEntriesUnsealed: unsealed)
        }
    }
}
