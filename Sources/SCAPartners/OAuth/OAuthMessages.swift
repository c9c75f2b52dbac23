import Foundation
import JWTKit
import SCACore
import SCAEngine
import SCALocalization
import SCAStorage

/// A validated authorization request (`GET /oauth2/authorize`), carried through the sign-in
/// pages in the sealed page cookie.
package struct AuthorizationRequest: Codable, Sendable, Equatable {
    var clientID: String
    package var redirectURI: String
    var scopes: [String]
    package var state: String?
    var nonce: String?
    var codeChallenge: String
    /// `prompt`, `max_age` and `acr_values` as asked (OpenID Connect Core §3.1.2.1); the
    /// `acr` values are checked again against what the sign-in earned.
    var acrValues: [String]? = nil
    /// `ui_locales` as asked (OpenID Connect Core §3.1.2.1): the languages the partner's user
    /// reads, best first; the sign-in pages take the first one shipped.
    package var uiLocales: String? = nil
    /// `authorization_details` as checked (RFC 9396): the payment or account access the
    /// sign-in asks the user to approve. Then the sign-in's challenge is that operation's, and
    /// a payment's proofs are bound to its transaction.
    package var authorizationDetail: AuthorizationDetail? = nil
    /// `response_mode` as asked: `query` (the default), or `jwt` and `query.jwt` (JARM).
    var responseMode: String? = nil

    /// The response comes back as one signed JWT (JARM).
    var wantsJWTResponse: Bool { responseMode.map(Self.jwtResponseModes.contains) ?? false }

    /// The JWT response modes of a code flow: `jwt` means `query.jwt` there.
    static let jwtResponseModes: Set<String> = ["jwt", "query.jwt"]

    /// What the sign-in grants the client: its tokens are the client's, within these scopes,
    /// for what `authorization_details` asked.
    package func delegation(clientName: String) -> Delegation {
        Delegation(clientID: clientID, clientName: clientName, scopes: scopes, grant: .signIn, authorizationDetail: authorizationDetail)
    }

    /// The operation the user proves: a sign-in, unless `authorization_details` asks for a
    /// payment or for account information.
    package var operation: OperationKind { authorizationDetail?.operation ?? .login }
}

/// The answer of `POST /oauth2/introspect` (RFC 7662 §2.2): only `active` for a token that is
/// not, else what the token is and is bound to.
struct OAuthIntrospection: Encodable, Sendable {
    var active: Bool
    var scope: String?
    var clientID: String?
    /// `DPoP` for a token bound to a key, `Bearer` otherwise.
    var tokenType: String?
    var exp: Int?
    var iat: Int?
    var sub: String?
    var aud: [String]?
    var jti: String?
    var cnf: TokenConfirmation?
    var acr: String?
    var amr: [AuthenticationMethod]?
    var authTime: Int?
    var authorizationDetails: [AuthorizationDetail]?

    init(active: Bool) {
        self.active = active
    }

    init(_ answer: IntrospectResponse) {
        active = true
        scope = answer.scope
        clientID = answer.clientID
        tokenType = answer.cnf == nil ? "Bearer" : "DPoP"
        exp = answer.exp
        iat = answer.iat
        sub = answer.sub
        aud = answer.aud
        jti = answer.jti
        cnf = answer.cnf
        acr = answer.acr
        amr = answer.amr
        authTime = answer.authTime
        authorizationDetails = answer.authorizationDetails
    }

    enum CodingKeys: String, CodingKey {
        case active, scope, exp, iat, sub, aud, jti, cnf, acr, amr
        case clientID = "client_id"
        case tokenType = "token_type"
        case authTime = "auth_time"
        case authorizationDetails = "authorization_details"
    }
}

/// A signed introspection answer (RFC 9701 §5): the server, the client it answers, when, and
/// the answer itself.
struct SignedIntrospection: JWTPayload {
    var iss: IssuerClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var tokenIntrospection: OAuthIntrospection

    enum CodingKeys: String, CodingKey {
        case iss, aud, iat
        case tokenIntrospection = "token_introspection"
    }

    init(iss: IssuerClaim, aud: AudienceClaim, iat: IssuedAtClaim, tokenIntrospection: OAuthIntrospection) {
        (self.iss, self.aud, self.iat, self.tokenIntrospection) = (iss, aud, iat, tokenIntrospection)
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "signed, never read here"))
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// What a pushed `request_uri` seals: the checked request and when it stops being usable.
struct PushedAuthorizationRequest: Codable, Sendable {
    var request: AuthorizationRequest
    var expiresAt: Date
}

/// The `201` of `POST /oauth2/par` (RFC 9126 §2.2).
package struct PushedAuthorizationResponse: Encodable, Sendable {
    var requestURI: String
    var expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
        case expiresIn = "expires_in"
    }
}

/// An RFC 6749 error: `error` and `error_description`, as JSON from the token endpoint
/// (§5.2) or as query parameters of a redirect (§4.1.2.1).
package struct OAuthError: Error, Sendable, Equatable {
    var status: Int
    package var error: String
    package var description: String
    /// The client tried HTTP Basic: a `401` then names that scheme (RFC 6749 §5.2).
    var basicChallenge = false
    /// Seconds before trying again, answered as `Retry-After` (a throttled client).
    var retryAfter: Int? = nil

    static func invalidRequest(_ description: String) -> OAuthError {
        OAuthError(status: 400, error: "invalid_request", description: description)
    }
    static func invalidGrant(_ description: String) -> OAuthError {
        OAuthError(status: 400, error: "invalid_grant", description: description)
    }
    static func invalidClient(basic: Bool) -> OAuthError {
        OAuthError(status: 401, error: "invalid_client", description: "client authentication failed", basicChallenge: basic)
    }

    static func invalidClient(_ description: String) -> OAuthError {
        OAuthError(status: 401, error: "invalid_client", description: description)
    }
}

/// The JSON body of an RFC 6749 error.
struct OAuthErrorBody: Encodable {
    var error: String
    var errorDescription: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

/// A successful answer of `POST /oauth2/token` (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
package struct OAuthTokenResponse: Encodable, Sendable {
    package var accessToken: String
    var tokenType = "Bearer"
    var expiresIn: Int
    package var refreshToken: String?
    package var idToken: String?
    var scope: String
    /// What the user approved, when the request asked with `authorization_details` (RFC 9396 §7).
    var authorizationDetails: [AuthorizationDetail]? = nil

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case scope
        case authorizationDetails = "authorization_details"
    }
}

/// `GET /oauth2/userinfo`.
struct UserInfoResponse: Encodable, Sendable {
    var sub: String
    var email: String?
    /// With the `profile` scope (``ProfileClaims``).
    var name: String?
    var locale: String?
    var zoneinfo: String?
}

/// The OpenID Connect `profile` claims this server holds, given only when the grant has that
/// scope, and each only when the user has one: `name`, `locale` (the language they chose, a
/// BCP 47 tag) and `zoneinfo` (their IANA time zone).
struct ProfileClaims: Equatable, Sendable {
    var name: String?
    var locale: String?
    var zoneinfo: String?

    static let scope = "profile"

    init(_ user: UserRecord?, scopes: [String]) {
        guard scopes.contains(Self.scope), let profile = user?.profile else { return }
        name = profile.name
        locale = profile.locale
        zoneinfo = profile.zoneinfo
    }
}

/// A JWT authorization response (JARM): who signed it, for whom, until when, and the
/// response's own parameters (`code` or `error` and `error_description`, `state`, `iss`).
struct AuthorizationResponseClaims: JWTPayload {
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var parameters: [(String, String)]

    init(aud: AudienceClaim, exp: ExpirationClaim, parameters: [(String, String)]) {
        (self.aud, self.exp, self.parameters) = (aud, exp, parameters)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ClaimName.self)
        aud = try container.decode(AudienceClaim.self, forKey: ClaimName("aud"))
        exp = try container.decode(ExpirationClaim.self, forKey: ClaimName("exp"))
        parameters = try container.allKeys.filter { !["aud", "exp"].contains($0.stringValue) }
            .map { ($0.stringValue, try container.decode(String.self, forKey: $0)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ClaimName.self)
        try container.encode(aud, forKey: ClaimName("aud"))
        try container.encode(exp, forKey: ClaimName("exp"))
        for (name, value) in parameters { try container.encode(value, forKey: ClaimName(name)) }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of an OpenID Connect id_token, signed ES256 with the keys of the JWKS.
struct IDTokenClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    var sub: SubjectClaim
    /// The client id.
    var aud: AudienceClaim
    var azp: String
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var authTime: Int
    var nonce: String?
    var acr: String
    var amr: [String]
    var sid: String
    /// The user's roles and what they grant, as in the access token: a partner
    /// authorises from the id_token without calling back.
    var roles: [String]
    var permissions: [String]
    var name: String?
    var locale: String?
    var zoneinfo: String?

    init(
        iss: IssuerClaim, sub: SubjectClaim, aud: AudienceClaim, azp: String, iat: IssuedAtClaim, exp: ExpirationClaim,
        authTime: Int, nonce: String?, acr: String, amr: [String], sid: String, roles: [String], permissions: [String],
        profile: ProfileClaims
    ) {
        (self.iss, self.sub, self.aud, self.azp, self.iat, self.exp) = (iss, sub, aud, azp, iat, exp)
        (self.authTime, self.nonce, self.acr, self.amr, self.sid) = (authTime, nonce, acr, amr, sid)
        (self.roles, self.permissions) = (roles, permissions)
        (name, locale, zoneinfo) = (profile.name, profile.locale, profile.zoneinfo)
    }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, azp, iat, exp, nonce, acr, amr, sid, roles, permissions, name, locale, zoneinfo
        case authTime = "auth_time"
    }

    /// Signature only; the partner checks the rest.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// `GET /.well-known/openid-configuration` and `/.well-known/oauth-authorization-server`.
struct OpenIDConfiguration: Encodable, Sendable {
    var issuer: String
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var revocationEndpoint: String
    var introspectionEndpoint: String
    var introspectionEndpointAuthMethodsSupported = Self.authenticationMethods
    var introspectionSigningAlgValuesSupported = ["ES256"]
    var userinfoEndpoint: String
    var pushedAuthorizationRequestEndpoint: String
    var endSessionEndpoint: String
    /// Not for every client: a `fapi2` client's registration says it must (RFC 9126 §6).
    var requirePushedAuthorizationRequests = false
    var jwksURI: String
    var responseTypesSupported = ["code"]
    var grantTypesSupported = ["authorization_code", "refresh_token", CIBAService.grantType]
    var codeChallengeMethodsSupported = [PKCE.method]
    var tokenEndpointAuthMethodsSupported = Self.authenticationMethods
    var tokenEndpointAuthSigningAlgValuesSupported = Self.assertionAlgorithms
    var revocationEndpointAuthMethodsSupported = Self.authenticationMethods
    var revocationEndpointAuthSigningAlgValuesSupported = Self.assertionAlgorithms
    var pushedAuthorizationRequestEndpointAuthMethodsSupported = Self.authenticationMethods
    var dpopSigningAlgValuesSupported = PublicJWK.fapiAlgorithms
    var authorizationDetailsTypesSupported = AuthorizationDetail.knownTypes
    static let authenticationMethods = ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"]
    /// RS256 from a standard client only; a `fapi2` client signs with the first three.
    static let assertionAlgorithms = ClientKeys.standardAlgorithms
    var scopesSupported = ["openid", "offline", "offline_access", "email", "profile", "consents"]
    var subjectTypesSupported = ["public"]
    var idTokenSigningAlgValuesSupported = ["ES256"]
    var claimsSupported = [
        "iss", "sub", "aud", "azp", "exp", "iat", "auth_time", "nonce", "acr", "amr", "sid", "email", "name", "locale",
        "zoneinfo", "roles", "permissions",
    ]
    /// The languages of the hosted pages, for `ui_locales`.
    var uiLocalesSupported = Language.allCases.map(\.tag)
    var responseModesSupported = ["query", "jwt", "query.jwt"]
    var authorizationSigningAlgValuesSupported = ["ES256"]
    /// The `acr` values a sign-in can earn; one asked in `acr_values` and not earned is refused.
    var acrValuesSupported = Self.supportedACRValues
    static let supportedACRValues = [TokenResponse.scaACR, TokenResponse.singleFactorACR]
    var claimsParameterSupported = false
    /// At the authorization endpoint: a signed request object is pushed, never sent by the browser.
    var requestParameterSupported = false
    var requestObjectSigningAlgValuesSupported = ClientKeys.standardAlgorithms
    var authorizationResponseIssParameterSupported = true
    // CIBA, poll and ping modes.
    var backchannelAuthenticationEndpoint: String
    var backchannelTokenDeliveryModesSupported = ["poll", "ping"]
    var backchannelUserCodeParameterSupported = false
    /// Back-channel logout: a logout token, with `sid`, when a client's session ends.
    var backchannelLogoutSupported = true
    var backchannelLogoutSessionSupported = true

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case introspectionEndpointAuthMethodsSupported = "introspection_endpoint_auth_methods_supported"
        case introspectionSigningAlgValuesSupported = "introspection_signing_alg_values_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case jwksURI = "jwks_uri"
        case responseTypesSupported = "response_types_supported"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case revocationEndpointAuthSigningAlgValuesSupported = "revocation_endpoint_auth_signing_alg_values_supported"
        case pushedAuthorizationRequestEndpointAuthMethodsSupported = "pushed_authorization_request_endpoint_auth_methods_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case authorizationDetailsTypesSupported = "authorization_details_types_supported"
        case scopesSupported = "scopes_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case claimsSupported = "claims_supported"
        case uiLocalesSupported = "ui_locales_supported"
        case responseModesSupported = "response_modes_supported"
        case authorizationSigningAlgValuesSupported = "authorization_signing_alg_values_supported"
        case acrValuesSupported = "acr_values_supported"
        case claimsParameterSupported = "claims_parameter_supported"
        case requestParameterSupported = "request_parameter_supported"
        case requestObjectSigningAlgValuesSupported = "request_object_signing_alg_values_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case backchannelAuthenticationEndpoint = "backchannel_authentication_endpoint"
        case backchannelTokenDeliveryModesSupported = "backchannel_token_delivery_modes_supported"
        case backchannelUserCodeParameterSupported = "backchannel_user_code_parameter_supported"
        case backchannelLogoutSupported = "backchannel_logout_supported"
        case backchannelLogoutSessionSupported = "backchannel_logout_session_supported"
    }
}
