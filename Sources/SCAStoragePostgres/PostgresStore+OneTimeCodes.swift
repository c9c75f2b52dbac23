import Foundation
import PostgresNIO
import SCACore
import SCAStorage

extension PostgresStore {
    /// One upsert decides: a first code is inserted; a later one replaces the stored code only
    /// if sends are left and the stored code is used or older than the interval (a used code
    /// holds nothing back: after a failed deferred verdict the user needs a fresh one at once),
    /// a condition checked on the row as it is once any racing upsert has committed. So two
    /// instances asked at once send one code, and the count never passes the limit. When the
    /// condition refuses, the row is read again only to say why.
    /// - Throws: `StoreError.notFound` when there is no such challenge.
    package func issueCode(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date,
        expiresAt: Date, minimumInterval: TimeInterval, maximumSends: Int
    ) async throws -> CodeIssueOutcome {
        let issued: [PostgresRow]
        do {
            // The new code replaces the old one, which can no longer be used.
            issued = try await rows(
                """
                INSERT INTO one_time_codes (challenge_id, method, code_hash, sent_at, expires_at, send_count, used)
                VALUES (\(challengeID), \(method.rawValue), \(bytea(codeHash)), \(now.unixSeconds), \(expiresAt.unixSeconds), 1, FALSE)
                ON CONFLICT (challenge_id, method) DO UPDATE SET
                    code_hash = excluded.code_hash, sent_at = excluded.sent_at, expires_at = excluded.expires_at,
                    send_count = one_time_codes.send_count + 1, used = FALSE
                WHERE (one_time_codes.used OR excluded.sent_at - one_time_codes.sent_at >= \(minimumInterval))
                    AND one_time_codes.send_count < \(maximumSends)
                RETURNING send_count
                """)
        } catch let error as PSQLError where error.isForeignKeyViolation {
            throw StoreError.notFound
        }
        if let row = issued.first {
            return .issued(sendCount: try Columns(row).value("send_count"))
        }
        let current = try await rows(
            "SELECT sent_at, used FROM one_time_codes WHERE challenge_id = \(challengeID) AND method = \(method.rawValue)"
        ).first
        if let current {
            let columns = Columns(current)
            let elapsed = now.timeIntervalSince(try columns.date("sent_at"))
            if elapsed < minimumInterval, try !columns.value("used", as: Bool.self) {
                // Whole seconds for a Retry-After header, rounded up so that a client
                // waiting that long is never refused again.
                return .tooSoon(retryAfter: max(1, Int((minimumInterval - elapsed).rounded(.up))))
            }
        }
        return .limitReached
    }

    /// One conditional UPDATE: of several concurrent presentations of a code, one wins.
    package func consumeCode(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date
    ) async throws -> CodeConsumption {
        let consumed = try await leased { [self] connection in
            try await useCode(challengeID: challengeID, method: method, codeHash: codeHash, now: now, connection)
        }
        if consumed { return .consumed }
        // Used is final, so a separate read cannot be wrong about it: a right code that
        // another presentation used first.
        let used = try await rows(
            """
            SELECT 1 FROM one_time_codes
            WHERE challenge_id = \(challengeID) AND method = \(method.rawValue) AND code_hash = \(bytea(codeHash)) AND used
            """)
        return used.isEmpty ? .rejected : .alreadyUsed
    }

    package func oneTimeCode(challengeID: String, method: AuthenticationMethod) async throws -> OneTimeCodeRecord? {
        try await rows("SELECT * FROM one_time_codes WHERE challenge_id = \(challengeID) AND method = \(method.rawValue)")
            .first.map(OneTimeCodeRecord.init(row:))
    }

    /// Marks the code used if it is still the one stored, unused and unexpired: one conditional
    /// UPDATE, so of several concurrent uses one wins (alone, or inside a proof's transaction).
    /// - Returns: whether this call used it.
    func useCode(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date, _ connection: PostgresConnection
    ) async throws -> Bool {
        let used = try await connection.rows(
            """
            UPDATE one_time_codes SET used = TRUE
            WHERE challenge_id = \(challengeID) AND method = \(method.rawValue) AND code_hash = \(bytea(codeHash))
                AND NOT used AND expires_at > \(now.unixSeconds)
            RETURNING challenge_id
            """,
            logger: logger)
        return used.count == 1
    }
}
