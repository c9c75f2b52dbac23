import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    package func sessionID(forRefreshTokenHash hash: [UInt8]) async throws -> String? {
        try await rows("SELECT session_id FROM refresh_tokens WHERE token_hash = \(bytea(hash))")
            .first.map { try Columns($0).value("session_id") }
    }

    /// One transaction that locks the presented token's row first (`FOR UPDATE`): of the same
    /// token presented twice at once, on one instance or two, the second waits, then reads the
    /// token as used and is treated as reuse.
    package func rotateRefreshToken(
        presentedHash: [UInt8], replacementHash: [UInt8]?, replacementExpiresAt: Date, now: Date,
        idleTimeout: TimeInterval
    ) async throws -> RefreshRotation {
        try await transaction { [self] connection in
            let row = try await connection.rows(
                "SELECT * FROM refresh_tokens WHERE token_hash = \(bytea(presentedHash)) FOR UPDATE", logger: logger
            ).first
            guard let row else { return .unknown }
            let token = try RefreshTokenRecord(row: row)
            if token.usedAt != nil {
                // A used token presented again was copied: end the whole family (refresh token rotation, RFC 9700).
                try await revoke(connection, sessionID: token.sessionID, now: now, announcing: true)
                return .reuseDetected(sessionID: token.sessionID)
            }
            guard var session = try await lockedSession(connection, id: token.sessionID), session.revokedAt == nil else {
                return .sessionEnded
            }
            if token.expiresAt <= now {
                return .sessionEnded
            }
            if Self.isIdle(session, now: now, idleTimeout: idleTimeout) {
                try await revoke(connection, sessionID: session.id, now: now)
                return .sessionEnded
            }
            if let replacementHash {
                _ = try await connection.rows(
                    "UPDATE refresh_tokens SET used_at = \(now.unixSeconds) WHERE token_hash = \(bytea(presentedHash))",
                    logger: logger)
                try await insert(
                    RefreshTokenRecord(
                        tokenHash: replacementHash, sessionID: session.id, issuedAt: now, expiresAt: replacementExpiresAt
                    ),
                    connection
                )
            }
            try await touch(connection, sessionID: session.id, now: now)
            session.lastUsedAt = now
            return .rotated(session)
        }
    }

    /// Remembers the id until its token expires, and forgets ids past their expiry first, so
    /// that the table does not grow without end. A token past its expiry is refused by its
    /// verifier before its id is looked up, so a forgotten id is never needed.
    ///
    /// `INSERT … ON CONFLICT DO NOTHING RETURNING` decides: of racing consumers on any
    /// instances, the one whose row lands gets a row back. The two statements share a
    /// transaction so the insert sees the clean-up.
    package func consumeToken(id: String, expiresAt: Date, now: Date) async throws -> Bool {
        try await transaction { [self] connection in
            _ = try await connection.rows(
                "DELETE FROM consumed_tokens WHERE expires_at < \(now.unixSeconds)", logger: logger)
            let inserted = try await connection.rows(
                """
                INSERT INTO consumed_tokens (jti, expires_at) VALUES (\(id), \(expiresAt.unixSeconds))
                ON CONFLICT (jti) DO NOTHING RETURNING jti
                """,
                logger: logger)
            return inserted.count == 1
        }
    }

    package func isTokenConsumed(id: String, now: Date) async throws -> Bool {
        try await !rows("SELECT 1 FROM consumed_tokens WHERE jti = \(id) AND expires_at >= \(now.unixSeconds)").isEmpty
    }

    func insert(_ token: RefreshTokenRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at, used_at)
            VALUES (
                \(bytea(token.tokenHash)), \(token.sessionID), \(token.issuedAt.unixSeconds),
                \(token.expiresAt.unixSeconds), \(token.usedAt?.unixSeconds)
            )
            """,
            logger: logger)
    }
}
