import Foundation

/// Tokens issued when a challenge completes, or when a refresh token is rotated.
public struct TokenResponse: Codable, Sendable, Equatable {
    /// The `acr` value of a token earned through strong customer authentication.
    public static let scaACR = "psd2.sca"
    /// The `acr` value of a token earned with proofs of fewer than two categories (a policy
    /// asking for one category, or an enrolment): never strong customer authentication.
    public static let singleFactorACR = "single-factor"

    /// The `acr` a completed challenge earns: `psd2.sca` only for proofs of two categories or more.
    public static func acr(for methods: [AuthenticationMethod]) -> String {
        acr(for: Set(methods.map(\.category)))
    }

    /// The `acr` for the categories a completed challenge's proofs proved.
    public static func acr(for categories: Set<Category>) -> String {
        categories.count >= 2 ? scaACR : singleFactorACR
    }

    public var accessToken: String
    public var tokenType: String
    public var expiresIn: Int
    /// Present for session operations (`login`, `account_info`); one-shot operations such as a
    /// payment get no refresh token, since their authorisation must not be renewable.
    public var refreshToken: String?
    public var operation: OperationKind
    public var amr: [AuthenticationMethod]
    public var acr: String
    /// The RTS exemption the token was issued under (`acr` is then `psd2.exempt`).
    public var exemption: Exemption?

    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: Int, refreshToken: String?,
        operation: OperationKind, amr: [AuthenticationMethod], acr: String = TokenResponse.scaACR,
        exemption: Exemption? = nil
    ) {
        self.exemption = exemption
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.operation = operation
        self.amr = amr
        self.acr = acr
    }
}

/// `POST /v1/tokens/refresh`.
package struct RefreshRequest: Codable, Sendable, Equatable {
    package var refreshToken: String
    package init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// `POST /v1/tokens/revoke`: an access or refresh token; either ends its session.
package struct RevokeRequest: Codable, Sendable, Equatable {
    package var token: String
    package init(token: String) { self.token = token }
}

/// `POST /v1/tokens/introspect` (RFC 7662 style).
package struct IntrospectRequest: Codable, Sendable, Equatable {
    package var token: String
    /// Active only if this transaction's digest equals the token's `txn`.
    package var transaction: Transaction?
    /// Active only if the token was issued for this operation.
    package var operation: OperationKind?
    /// Burn the token: a payment token is accepted this way once, ever.
    package var consume: Bool?

    package init(
        token: String, transaction: Transaction? = nil, operation: OperationKind? = nil,
        consume: Bool? = nil
    ) {
        self.token = token
        self.transaction = transaction
        self.operation = operation
        self.consume = consume
    }
}

/// The introspection answer. Only `active` is present when the token is not active.
public struct IntrospectResponse: Codable, Sendable, Equatable {
    public var active: Bool
    public var sub: String?
    public var op: OperationKind?
    public var sid: String?
    public var jti: String?
    public var amr: [AuthenticationMethod]?
    public var acr: String?
    public var txn: String?
    /// The RTS exemption the token was issued under.
    public var exemption: Exemption?
    public var iat: Int?
    public var exp: Int?
    /// The user's roles when the token was signed, sorted, each once.
    public var roles: [String]?
    /// What those roles grant, sorted, each once.
    public var permissions: [String]?
    /// When the user authenticated (unix seconds): the session's start, kept through refreshes.
    public var authTime: Int?
    /// Profile claims the token carries (`tokenClaims`), answered beside the others
    /// at the top level by the server (not part of this type's own coding).
    public var profileClaims: [String: String]? = nil
    /// `first_party` or `delegated`: whether the token is the bank's own surfaces' or one
    /// partner's (`client_id`). A resource server that serves the user's own app refuses a
    /// delegated token; one that serves partners checks `client_id` and `scope`.
    public var tokenUse: String?
    /// The audience: the first-party API, or the partner client.
    public var aud: [String]?
    /// For a delegated token: the partner client it was issued to (RFC 7662).
    public var clientID: String?
    /// For a delegated token: the scopes granted, space-separated (RFC 7662).
    public var scope: String?
    /// For a delegated token: the consent or the operation whose approval issued it.
    public var consentID: String?
    public var operationID: String?
    /// For a token bound to a key (DPoP): the key's JWK thumbprint (RFC 7800, RFC 9449 §6). A
    /// resource server then accepts the token only with a DPoP proof of that key.
    public var cnf: TokenConfirmation?
    /// For a token of a sign-in with `authorization_details` (RFC 9396): the payment or the
    /// account access the user approved.
    public var authorizationDetails: [AuthorizationDetail]?

    public init(active: Bool) { self.active = active }

    enum CodingKeys: String, CodingKey {
        case active, sub, op, sid, jti, amr, acr, txn, iat, exp, roles, permissions, exemption, aud, scope, cnf
        case authTime = "auth_time"
        case tokenUse = "token_use"
        case clientID = "client_id"
        case consentID = "consent_id"
        case operationID = "operation_id"
        case authorizationDetails = "authorization_details"
    }
}

/// The key a token is bound to: the JWK thumbprint (RFC 7638) of its DPoP key.
public struct TokenConfirmation: Codable, Sendable, Equatable {
    public var jkt: String

    public init(jkt: String) { self.jkt = jkt }
}
