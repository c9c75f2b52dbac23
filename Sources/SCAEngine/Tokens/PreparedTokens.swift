import SCACore
import SCAStorage

/// The tokens of a completed challenge before its session is stored (``TokenService/prepare(for:userID:)``).
struct PreparedTokens: Sendable {
    /// The session to store, with its first refresh token.
    let opening: SessionOpening
    /// The answer, valid once the session is stored.
    let response: TokenResponse
    /// The `token.issued` entry, to append with the session.
    let audit: PreparedAuditEvent
}
