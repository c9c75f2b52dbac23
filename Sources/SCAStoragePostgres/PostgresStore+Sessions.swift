import Foundation
import PostgresNIO
import SCACore
import SCAStorage

extension PostgresStore {
    /// Stores the session and its first refresh token together, in one transaction.
    /// - Throws: `StoreError.conflict("id")` when the session id or token hash exists.
    package func createSession(_ session: SessionRecord, refreshToken: RefreshTokenRecord?) async throws {
        do {
            try await transaction { [self] connection in
                try await createSession(session, refreshToken: refreshToken, connection)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    /// The inserts of ``createSession(_:refreshToken:)`` inside a caller's transaction.
    func createSession(_ session: SessionRecord, refreshToken: RefreshTokenRecord?, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            INSERT INTO sessions (id, user_id, operation, challenge_id, created_at, last_used_at, revoked_at, client_id)
            VALUES (
                \(session.id), \(session.userID), \(session.operation.rawValue), \(session.challengeID),
                \(session.createdAt.unixSeconds), \(session.lastUsedAt.unixSeconds), \(session.revokedAt?.unixSeconds),
                \(session.clientID)
            )
            """,
            logger: logger)
        if let refreshToken {
            try await insert(refreshToken, connection)
        }
    }

    package func session(id: String) async throws -> SessionRecord? {
        try await rows("SELECT * FROM sessions WHERE id = \(id)").first.map(SessionRecord.init(row:))
    }

    /// Reads and writes the session in one transaction with its row locked, so a use racing a
    /// revocation or another use on another instance sees its outcome.
    package func useSession(id: String, now: Date, idleTimeout: TimeInterval) async throws -> SessionUse {
        try await transaction { [self] connection in
            guard var session = try await lockedSession(connection, id: id) else { return .notFound }
            if session.revokedAt != nil { return .revoked }
            if Self.isIdle(session, now: now, idleTimeout: idleTimeout) {
                try await revoke(connection, sessionID: id, now: now)
                return .idle
            }
            try await touch(connection, sessionID: id, now: now)
            session.lastUsedAt = now
            return .active(session)
        }
    }

    /// Ends the session and so every token of its family, announced to its partner. Revoking
    /// twice keeps the first date; an unknown id is ignored.
    package func revokeSession(id: String, now: Date) async throws {
        try await transaction { [self] connection in
            try await revoke(connection, sessionID: id, now: now, announcing: true)
        }
    }

    package func endSessions(userID: String, now: Date) async throws -> Int {
        try await transaction { [self] connection in
            try await endSessions(userID: userID, now: now, connection)
        }
    }

    /// Ends every live session of the user inside the caller's transaction, announcing each to
    /// its partner. - Returns: how many it ended.
    func endSessions(userID: String, now: Date, _ connection: PostgresConnection) async throws -> Int {
        let ended = try await connection.rows(
            """
            UPDATE sessions SET revoked_at = \(now.unixSeconds) WHERE user_id = \(userID) AND revoked_at IS NULL
            RETURNING id, client_id
            """,
            logger: logger)
        for row in ended {
            let columns = Columns(row)
            try await announceLogout(
                ofSession: try columns.value("id"), clientID: try columns.value("client_id", as: String?.self), now: now,
                connection)
        }
        return ended.count
    }

    package func bindSession(id: String, toKey thumbprint: String) async throws -> Bool {
        try await !rows(
            """
            UPDATE sessions SET key_thumbprint = \(thumbprint)
            WHERE id = \(id) AND revoked_at IS NULL AND (key_thumbprint IS NULL OR key_thumbprint = \(thumbprint))
            RETURNING id
            """
        ).isEmpty
    }

    /// The session, its row locked until the transaction ends.
    func lockedSession(_ connection: PostgresConnection, id: String) async throws -> SessionRecord? {
        try await connection.rows("SELECT * FROM sessions WHERE id = \(id) FOR NO KEY UPDATE", logger: logger)
            .first.map(SessionRecord.init(row:))
    }

    static func isIdle(_ session: SessionRecord, now: Date, idleTimeout: TimeInterval) -> Bool {
        now.timeIntervalSince(session.lastUsedAt) > idleTimeout
    }

    /// - Parameter announcing: write the back-channel logout of a partner's session that this
    ///   call ended (not of one ended before, nor of one that merely went idle: its partner
    ///   learns that from the refusal of its next use).
    func revoke(_ connection: PostgresConnection, sessionID: String, now: Date, announcing: Bool = false) async throws {
        let ended = try await connection.rows(
            """
            UPDATE sessions SET revoked_at = \(now.unixSeconds) WHERE id = \(sessionID) AND revoked_at IS NULL
            RETURNING client_id
            """,
            logger: logger
        ).first
        guard announcing, let ended else { return }
        try await announceLogout(
            ofSession: sessionID, clientID: try Columns(ended).value("client_id", as: String?.self), now: now, connection)
    }

    /// Writes the back-channel logout of a session just ended when it was a partner's and that
    /// client takes them.
    private func announceLogout(
        ofSession sessionID: String, clientID: String?, now: Date, _ connection: PostgresConnection
    ) async throws {
        guard let clientID, try await hasReceiver(of: .backchannelLogout, clientID: clientID, connection) else { return }
        _ = try await connection.rows(
            Self.deliveryInsert(.logout(ofSession: sessionID, clientID: clientID, now: now)), logger: logger)
    }

    func touch(_ connection: PostgresConnection, sessionID: String, now: Date) async throws {
        _ = try await connection.rows(
            "UPDATE sessions SET last_used_at = \(now.unixSeconds) WHERE id = \(sessionID)", logger: logger)
    }
}
