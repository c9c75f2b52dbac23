import Foundation
import SCACore

/// What a completed challenge opens: the `sid` of its tokens and the family of its refresh
/// tokens. Revoking it ends every token of the family.
public struct SessionRecord: Sendable, Equatable {
    public var id: String
    public var userID: String
    public var operation: OperationKind
    public var challengeID: String
    public var createdAt: Date
    /// Refreshed on every use; a login session ends after a set time without use.
    public var lastUsedAt: Date
    public var revokedAt: Date?
    /// The partner client the session's tokens were issued to; nil for a first-party session.
    /// Removing the client ends every session that names it.
    public var clientID: String?
    /// The JWK thumbprint (RFC 7638) of the key the session's tokens are bound to (DPoP): every
    /// token of the session is then used only with a proof of that key. Nil for bearer tokens.
    public var keyThumbprint: String?

    public init(
        id: String, userID: String, operation: OperationKind, challengeID: String, createdAt: Date,
        lastUsedAt: Date, revokedAt: Date? = nil, clientID: String? = nil, keyThumbprint: String? = nil
    ) {
        self.clientID = clientID
        self.keyThumbprint = keyThumbprint
        self.id = id
        self.userID = userID
        self.operation = operation
        self.challengeID = challengeID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// A refresh token, by the SHA-256 of its value. Each is used once; its successor is issued
/// in the same step.
public struct RefreshTokenRecord: Sendable, Equatable {
    public var tokenHash: [UInt8]
    public var sessionID: String
    public var issuedAt: Date
    public var expiresAt: Date
    public var usedAt: Date?

    public init(tokenHash: [UInt8], sessionID: String, issuedAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.tokenHash = tokenHash
        self.sessionID = sessionID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// A token-signing key, its private half sealed with the server key.
public struct SigningKeyRecord: Sendable, Equatable {
    public var keyID: String
    public var algorithm: String
    public var sealedPrivateKey: [UInt8]
    public var createdAt: Date
    /// From when the key signs. A rotated key is stored ahead of it, so that it is published
    /// before its first token; a store's first key, and every key stored before keys rotated
    /// (v8-signing-key-activation), activates at its creation.
    public var activatesAt: Date

    /// - Parameter activatesAt: nil: at `createdAt`.
    public init(keyID: String, algorithm: String, sealedPrivateKey: [UInt8], createdAt: Date, activatesAt: Date? = nil) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt ?? createdAt
    }
}
