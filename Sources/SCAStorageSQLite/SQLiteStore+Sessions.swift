import Foundation
import GRDB
import SCACore
import SCAStorage

extension SQLiteStore {
    /// Stores the session and its first refresh token together.
    /// - Throws: `StoreError.conflict("id")` when the session id or token hash exists.
    package func createSession(_ session: SessionRecord, refreshToken: RefreshTokenRecord?) async throws {
        try await write { db in try Self.createSession(session, refreshToken: refreshToken, db) }
    }

    /// The insert of ``createSession(_:refreshToken:)`` inside a caller's write transaction.
    static func createSession(_ session: SessionRecord, refreshToken: RefreshTokenRecord?, _ db: Database) throws {
        do {
            try db.cachedStatement(
                sql: """
                    INSERT INTO sessions (id, user_id, operation, challenge_id, created_at, last_used_at, revoked_at, client_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(
                arguments: [
                    session.id, session.userID, session.operation.rawValue, session.challengeID,
                    session.createdAt.unixSeconds, session.lastUsedAt.unixSeconds, session.revokedAt?.unixSeconds,
                    session.clientID,
                ]
            )
            if let refreshToken {
                try insert(refreshToken, db)
            }
        } catch let error as DatabaseError where error.isUniquenessViolation {
            throw StoreError.conflict("id")
        }
    }

    package func session(id: String) async throws -> SessionRecord? {
        try await read { db in
            try Self.session(db, id: id)
        }
    }

    package func useSession(id: String, now: Date, idleTimeout: TimeInterval) async throws -> SessionUse {
        try await write { db in
            guard var session = try Self.session(db, id: id) else { return .notFound }
            if session.revokedAt != nil { return .revoked }
            if Self.isIdle(session, now: now, idleTimeout: idleTimeout) {
                try Self.revoke(db, sessionID: id, now: now)
                return .idle
            }
            try Self.touch(db, sessionID: id, now: now)
            session.lastUsedAt = now
            return .active(session)
        }
    }

    /// Ends the session and so every token of its family, announced to its partner. Revoking
    /// twice keeps the first date; an unknown id is ignored.
    package func revokeSession(id: String, now: Date) async throws {
        try await write { db in
            try Self.revoke(db, sessionID: id, now: now, announcing: true)
        }
    }

    package func endSessions(userID: String, now: Date) async throws -> Int {
        try await write { db in
            try Self.endSessions(userID: userID, now: now, db)
        }
    }

    /// Ends every live session of the user inside the caller's transaction, announcing each to
    /// its partner. - Returns: how many it ended.
    static func endSessions(userID: String, now: Date, _ db: Database) throws -> Int {
        let ended = try Row.fetchAll(
            db.cachedStatement(
                sql: "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL RETURNING id, client_id"),
            arguments: [now.unixSeconds, userID])
        for row in ended {
            try announceLogout(ofSession: row["id"], clientID: row["client_id"], now: now, db)
        }
        return ended.count
    }

    package func bindSession(id: String, toKey thumbprint: String) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE sessions SET key_thumbprint = ?
                    WHERE id = ? AND revoked_at IS NULL AND (key_thumbprint IS NULL OR key_thumbprint = ?)
                    """
            ).execute(arguments: [thumbprint, id, thumbprint])
            return db.changesCount == 1
        }
    }

    static func session(_ db: Database, id: String) throws -> SessionRecord? {
        try db.cachedStatement(sql: "SELECT * FROM sessions WHERE id = ?").fetchOne(SessionRecord.self, arguments: [id])
    }

    static func isIdle(_ session: SessionRecord, now: Date, idleTimeout: TimeInterval) -> Bool {
        now.timeIntervalSince(session.lastUsedAt) > idleTimeout
    }

    /// - Parameter announcing: write the back-channel logout of a partner's session that this
    ///   call ended (not of one ended before, nor of one that merely went idle: its partner
    ///   learns that from the refusal of its next use).
    static func revoke(_ db: Database, sessionID: String, now: Date, announcing: Bool = false) throws {
        // One row at most, and only when this call ended the session: its client, or NULL.
        let ended = try Row.fetchOne(
            db.cachedStatement(sql: "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING client_id"),
            arguments: [now.unixSeconds, sessionID])
        guard announcing, let ended else { return }
        try announceLogout(ofSession: sessionID, clientID: ended["client_id"], now: now, db)
    }

    /// Writes the back-channel logout of a session just ended when it was a partner's and that
    /// client takes them.
    private static func announceLogout(ofSession sessionID: String, clientID: String?, now: Date, _ db: Database) throws {
        guard let clientID, try hasReceiver(of: .backchannelLogout, clientID: clientID, db) else { return }
        try insertDelivery(.logout(ofSession: sessionID, clientID: clientID, now: now), in: db)
    }

    static func touch(_ db: Database, sessionID: String, now: Date) throws {
        try db.cachedStatement(
            sql: "UPDATE sessions SET last_used_at = ? WHERE id = ?").execute(
            arguments: [now.unixSeconds, sessionID]
        )
    }
}
