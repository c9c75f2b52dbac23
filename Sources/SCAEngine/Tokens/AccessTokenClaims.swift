import JWTKit
import SCACore

/// The claims of an access token (openapi.yaml, phase 3 "Result" and `TokenResponse`).
package struct AccessTokenClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    package var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    package var exp: ExpirationClaim
    var jti: IDClaim
    /// The session (and refresh-token family) the token belongs to.
    package var sid: String
    /// The one operation this token authorises.
    package var op: OperationKind
    package var amr: [AuthenticationMethod]
    package var acr: String
    /// For payments: the transaction digest the proofs were bound to.
    package var txn: String?
    /// The user's roles when the token was signed, sorted, each once. Optional
    /// only so that tokens signed before it still verify.
    var roles: [String]?
    /// What those roles grant (`RolePermissions`), sorted, each once.
    var permissions: [String]?
    /// When the user authenticated: the session's start, kept through refreshes, so a
    /// step-up check sees the age of the authentication, not of the token.
    var authTime: IssuedAtClaim?
    /// The RTS exemption the token was issued under, without SCA (`acr` `psd2.exempt`).
    var exemption: Exemption?
    /// The partner client a delegated token was issued to (RFC 9068 `client_id`); absent from
    /// a first-party token. ``holder`` reads the two kinds apart.
    package var clientID: String?
    /// The same client as the authorised party, for relying parties that read OpenID's name.
    var azp: String?
    /// The scopes granted to the partner, space-separated (RFC 9068 `scope`).
    var scope: String?
    /// The consent whose approval issued the token.
    var consentID: String?
    /// The decoupled operation (CIBA's included) whose approval issued the token.
    var operationID: String?
    /// The key the token is bound to (DPoP, RFC 9449 §6): used only with a proof of that key.
    package var cnf: Confirmation?
    /// What the user approved for the partner (RFC 9396 `authorization_details`): one payment
    /// or one account access, as shown on the page.
    package var authorizationDetails: [AuthorizationDetail]?

    /// RFC 7800's confirmation claim, with the JWK thumbprint of a DPoP key.
    package struct Confirmation: Codable, Sendable, Equatable {
        package var jkt: String
    }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp, jti, sid, op, amr, acr, txn, roles, permissions, exemption, azp, scope, cnf
        case authTime = "auth_time"
        case clientID = "client_id"
        case consentID = "consent_id"
        case operationID = "operation_id"
        case authorizationDetails = "authorization_details"
    }

    /// Who the token was issued to, for ``TokenAccess``.
    package var holder: TokenHolder { TokenHolder(clientID: clientID, scope: scope) }

    /// Signature only: expiry, issuer and audience are checked by `TokenService` against the
    /// injected clock and the configuration, so tests control time.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
