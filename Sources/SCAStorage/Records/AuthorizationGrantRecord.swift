import Foundation

/// What a sign-in on the hosted page granted a partner client: the authorization code (by its
/// SHA-256), what it was asked for, and the session the sign-in opened. The tokens wait here,
/// sealed, until the code is exchanged; the row stays afterwards so that a second use of the
/// code, and every token the session still has, can be found and revoked.
public struct AuthorizationGrantRecord: Sendable, Equatable {
    public var codeHash: [UInt8]
    public var clientID: String
    public var redirectURI: String
    public var userID: String
    /// The session of the tokens issued from this code.
    public var sessionID: String
    public var scopes: [String]
    public var nonce: String?
    /// The PKCE S256 challenge the exchange must answer.
    public var codeChallenge: String
    public var authTime: Date
    /// The access and refresh tokens, sealed with the server key until the exchange.
    public var sealedTokens: [UInt8]
    public var expiresAt: Date
    public var redeemedAt: Date?

    public init(
        codeHash: [UInt8], clientID: String, redirectURI: String, userID: String, sessionID: String, scopes: [String],
        nonce: String?, codeChallenge: String, authTime: Date, sealedTokens: [UInt8], expiresAt: Date,
        redeemedAt: Date? = nil
    ) {
        self.codeHash = codeHash
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.userID = userID
        self.sessionID = sessionID
        self.scopes = scopes
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.authTime = authTime
        self.sealedTokens = sealedTokens
        self.expiresAt = expiresAt
        self.redeemedAt = redeemedAt
    }
}
