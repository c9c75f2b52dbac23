import Foundation
import SCACore
import SCAStorage

extension UserService {
    /// The users an operator's search text names, at most `limit`: a user id (`usr_…`) or a
    /// device id (`dev_…`) exactly, a phone number (starting with `+`) as the SMS or sign-in
    /// phone, an e-mail address exactly, or the start of one. In e-mail order, from after the
    /// user `after` (the last of the page before); an id names one user, so it has no next page.
    package func search(_ text: String, after: String? = nil, limit: Int) async throws -> [UserRecord] {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= InputRules.maxEmailLength else { return [] }
        if let after, !InputRules.isWellFormedID(after, prefix: "usr") { return [] }
        if after != nil, text.hasPrefix("usr_") || text.hasPrefix("dev_") { return [] }
        if text.hasPrefix("usr_") {
            guard InputRules.isWellFormedID(text, prefix: "usr") else { return [] }
            return try await store.user(id: text).map { [$0] } ?? []
        }
        if text.hasPrefix("dev_") {
            guard InputRules.isWellFormedID(text, prefix: "dev"), let device = try await store.device(id: text) else { return [] }
            return try await store.user(id: device.userID).map { [$0] } ?? []
        }
        if text.hasPrefix("+") {
            return try await store.findUsers(.phone(InputRules.normalizedPhone(text)), after: after, limit: limit)
        }
        return try await store.findUsers(.emailPrefix(InputRules.normalizedEmail(text)), after: after, limit: limit)
    }

    /// The newest audit entries that name the user, newest first.
    package func timeline(of userID: String, limit: Int) async throws -> [AuditEntry] {
        try await store.auditEntries(userID: userID, before: nil, limit: limit)
    }

    /// Ends every open session of the user, the user's own and partners' (each partner told
    /// through its back-channel logout): an operator's act, recorded as `admin.sessions_ended`.
    /// - Returns: how many sessions ended.
    /// - Throws: `Problem.userNotFound`.
    package func endSessions(of userID: String) async throws -> Int {
        guard try await store.user(id: userID) != nil else { throw Problem.userNotFound }
        let ended = try await store.endSessions(userID: userID, now: runtime.now())
        await audit.record(.adminSessionsEnded, userID: userID, details: ["sessions": String(ended)])
        return ended
    }

    /// Ends one open session of the user (a partner's, or one device's sign-in): its tokens stop
    /// on every instance, and a partner with a back-channel logout URI is told. An operator's
    /// act, recorded as `admin.sessions_ended`.
    /// - Throws: `Problem.userNotFound`; 404 `resource.not_found` for a session that is not the
    ///   user's or has ended.
    package func endSession(_ sessionID: String, of userID: String) async throws {
        guard try await store.user(id: userID) != nil else { throw Problem.userNotFound }
        guard InputRules.isWellFormedID(sessionID, prefix: "ses"), let session = try await store.session(id: sessionID),
            session.userID == userID, session.revokedAt == nil
        else { throw Problem(status: 404, code: .notFound, title: "Not found", detail: "The user has no such open session.") }
        try await store.revokeSession(id: session.id, now: runtime.now())
        await audit.record(
            .adminSessionsEnded, userID: userID, sessionID: session.id,
            details: ["sessions": "1", "client": session.clientID ?? "first-party"])
    }
}
