import Foundation
import GRDB
import SCACore
import SCAStorage

extension SQLiteStore {
    /// - Throws: `StoreError.notFound` when there is no such challenge.
    package func issueCode(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date,
        expiresAt: Date, minimumInterval: TimeInterval, maximumSends: Int
    ) async throws -> CodeIssueOutcome {
        try await write { db in
            let current = try db.cachedStatement(
                sql: "SELECT sent_at, send_count, used FROM one_time_codes WHERE challenge_id = ? AND method = ?"
            ).fetchOne(arguments: [challengeID, method.rawValue]) { columns in
                (sentAt: try columns.date("sent_at"), sendCount: try columns.value("send_count", as: Int.self),
                 used: try columns.value("used", as: Bool.self))
            }
            var sendCount = 0
            if let current {
                let elapsed = now.timeIntervalSince(current.sentAt)
                // A code already used cannot be waited for: its replacement may go at once
                // (a deferred verdict that failed needs a fresh code). The send cap still holds.
                if elapsed < minimumInterval && !current.used {
                    // Whole seconds for a Retry-After header, rounded up so that a client
                    // waiting that long is never refused again.
                    return .tooSoon(retryAfter: max(1, Int((minimumInterval - elapsed).rounded(.up))))
                }
                sendCount = current.sendCount
                if sendCount >= maximumSends { return .limitReached }
            }
            sendCount += 1
            do {
                // The new code replaces the old one, which can no longer be used.
                try db.cachedStatement(
                    sql: """
                        INSERT INTO one_time_codes (challenge_id, method, code_hash, sent_at, expires_at, send_count, used)
                        VALUES (?, ?, ?, ?, ?, ?, 0)
                        ON CONFLICT (challenge_id, method) DO UPDATE SET
                            code_hash = excluded.code_hash, sent_at = excluded.sent_at,
                            expires_at = excluded.expires_at, send_count = excluded.send_count, used = 0
                        """).execute(
                    arguments: [
                        challengeID, method.rawValue, Data(codeHash), now.unixSeconds, expiresAt.unixSeconds,
                        sendCount,
                    ]
                )
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.notFound
            }
            return .issued(sendCount: sendCount)
        }
    }

    /// One conditional UPDATE: of several concurrent presentations of a code, one wins.
    package func consumeCode(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date
    ) async throws -> CodeConsumption {
        try await write { db in
            if try Self.useCode(challengeID: challengeID, method: method, codeHash: codeHash, now: now, db) { return .consumed }
            // In the same transaction: a right code that another presentation used first.
            let used = try db.exists(
                "SELECT 1 FROM one_time_codes WHERE challenge_id = ? AND method = ? AND code_hash = ? AND used = 1",
                arguments: [challengeID, method.rawValue, Data(codeHash)])
            return used ? .alreadyUsed : .rejected
        }
    }

    package func oneTimeCode(challengeID: String, method: AuthenticationMethod) async throws -> OneTimeCodeRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM one_time_codes WHERE challenge_id = ? AND method = ?")
                .fetchOne(OneTimeCodeRecord.self, arguments: [challengeID, method.rawValue])
        }
    }

    /// Marks the code used if it is still the one stored, unused and unexpired: one conditional
    /// UPDATE, so of several concurrent uses one wins (alone, or inside a proof's commit).
    /// - Returns: whether this call used it.
    static func useCode(challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date, _ db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: """
                UPDATE one_time_codes SET used = 1
                WHERE challenge_id = ? AND method = ? AND code_hash = ? AND used = 0 AND expires_at > ?
                """).execute(
            arguments: [challengeID, method.rawValue, Data(codeHash), now.unixSeconds]
        )
        return db.changesCount == 1
    }
}
