import Foundation
import GRDB
import SCAStorage

extension SQLiteStore {
    package func sessionID(forRefreshTokenHash hash: [UInt8]) async throws -> String? {
        try await read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT session_id FROM refresh_tokens WHERE token_hash = ?"), arguments: [Data(hash)]
            )
        }
    }

    /// Reads the token and its session and writes the outcome in one transaction, so a token
    /// presented twice at once rotates once and the second presentation is seen as reuse.
    package func rotateRefreshToken(
        presentedHash: [UInt8], replacementHash: [UInt8]?, replacementExpiresAt: Date, now: Date,
        idleTimeout: TimeInterval
    ) async throws -> RefreshRotation {
        try await write { db in
            let token = try db.cachedStatement(sql: "SELECT * FROM refresh_tokens WHERE token_hash = ?")
                .fetchOne(RefreshTokenRecord.self, arguments: [Data(presentedHash)])
            guard let token else { return .unknown }
            if token.usedAt != nil {
                // A used token presented again was copied: end the whole family (refresh token rotation, RFC 9700).
                try Self.revoke(db, sessionID: token.sessionID, now: now, announcing: true)
                return .reuseDetected(sessionID: token.sessionID)
            }
            guard var session = try Self.session(db, id: token.sessionID), session.revokedAt == nil else {
                return .sessionEnded
            }
            if token.expiresAt <= now {
                return .sessionEnded
            }
            if Self.isIdle(session, now: now, idleTimeout: idleTimeout) {
                try Self.revoke(db, sessionID: session.id, now: now)
                return .sessionEnded
            }
            if let replacementHash {
                try db.cachedStatement(
                    sql: "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ?").execute(
                    arguments: [now.unixSeconds, Data(presentedHash)]
                )
                try Self.insert(
                    RefreshTokenRecord(
                        tokenHash: replacementHash, sessionID: session.id, issuedAt: now, expiresAt: replacementExpiresAt
                    ),
                    db
                )
            }
            try Self.touch(db, sessionID: session.id, now: now)
            session.lastUsedAt = now
            return .rotated(session)
        }
    }

    /// Remembers the id until its token expires, and forgets ids past their expiry in the same
    /// transaction so that the table does not grow without end. A token past its expiry is
    /// refused by its verifier before its id is looked up, so a forgotten id is never needed.
    package func consumeToken(id: String, expiresAt: Date, now: Date) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM consumed_tokens WHERE expires_at < ?").execute(arguments: [now.unixSeconds])
            try db.cachedStatement(
                sql: "INSERT INTO consumed_tokens (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING").execute(
                arguments: [id, expiresAt.unixSeconds]
            )
            return db.changesCount == 1
        }
    }

    package func isTokenConsumed(id: String, now: Date) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM consumed_tokens WHERE jti = ? AND expires_at >= ?)"),
                arguments: [id, now.unixSeconds]) ?? false
        }
    }

    static func insert(_ token: RefreshTokenRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at, used_at)
                VALUES (?, ?, ?, ?, ?)
                """).execute(
            arguments: [
                Data(token.tokenHash), token.sessionID, token.issuedAt.unixSeconds, token.expiresAt.unixSeconds,
                token.usedAt?.unixSeconds,
            ]
        )
    }
}
