import JWTKit
import SCACore

/// The claims of an access token (openapi.yaml, phase 3 "Result" and `TokenResponse`).
struct AccessTokenClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var jti: IDClaim
    /// The session (and refresh-token family) the token belongs to.
    var sid: String
    /// The one operation this token authorises.
    var op: OperationKind
    var amr: [AuthenticationMethod]
    var acr: String
    /// For payments: the transaction digest the proofs were bound to.
    var txn: String?
    /// The user's roles when the token was signed, sorted, each once (issue 13). Optional
    /// only so that tokens signed before it still verify.
    var roles: [String]?
    /// What those roles grant (`RolePermissions`), sorted, each once.
    var permissions: [String]?
    /// When the user authenticated: the session's start, kept through refreshes, so a
    /// step-up check sees the age of the authentication, not of the token.
    var authTime: IssuedAtClaim?
    /// The RTS exemption the token was issued under, without SCA (`acr` `psd2.exempt`; issue 12).
    var exemption: Exemption?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp, jti, sid, op, amr, acr, txn, roles, permissions, exemption
        case authTime = "auth_time"
    }

    /// Signature only: expiry, issuer and audience are checked by `TokenService` against the
    /// injected clock and the configuration, so tests control time.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
