import Foundation

/// The answer to a request to issue a new SMS or e-mail code for a challenge.
public enum CodeIssueOutcome: Sendable, Equatable {
    /// Stored; this is send number `sendCount` for the challenge and method.
    case issued(sendCount: Int)
    /// The previous code was sent too recently; retry after this many seconds.
    case tooSoon(retryAfter: Int)
    /// The challenge has used up its sends for this method.
    case limitReached
}

/// The answer to presenting a refresh token.
public enum RefreshRotation: Sendable, Equatable {
    /// The token was current: it is now used, the replacement stored, the session touched.
    case rotated(SessionRecord)
    /// No such token.
    case unknown
    /// The token had been used before: its whole family (session) is now revoked.
    case reuseDetected(sessionID: String)
    /// The session was revoked, idle too long, or the token expired.
    case sessionEnded
}

/// The answer to using a session.
public enum SessionUse: Sendable, Equatable {
    case active(SessionRecord)
    /// Idle longer than allowed: the session is now ended.
    case idle
    case revoked
    case notFound
}

/// Errors a store reports for domain reasons (anything else is an I/O failure).
public enum StoreError: Error, Sendable, Equatable {
    /// A unique value (e-mail, id) is taken.
    case conflict(String)
    case notFound
}
