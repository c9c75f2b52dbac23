import Foundation
import SCACore

/// A signed-in session as the ``TokenStore`` keeps it.
public struct StoredTokens: Codable, Sendable, Equatable {
    /// The bearer token for API calls.
    public var accessToken: String
    /// Rotated on every refresh; nil when the session cannot be extended.
    public var refreshToken: String?
    /// When the access token expires, by the client's clock.
    public var expiresAt: Date
    /// The operation the session was opened for (`login`, `account_info`).
    public var operation: OperationKind

    /// - Parameters:
    ///   - accessToken: the bearer token.
    ///   - refreshToken: the current refresh token, if any.
    ///   - expiresAt: when the access token expires.
    ///   - operation: the session's operation.
    public init(accessToken: String, refreshToken: String?, expiresAt: Date, operation: OperationKind) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.operation = operation
    }
}
