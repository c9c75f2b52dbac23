import Foundation

/// `POST /admin/v1/clients`: registers a partner application.
package struct CreatePartnerClientRequest: Codable, Sendable, Equatable {
    package var name: String
    /// Exact redirect URIs of the sign-in flow (see `RedirectURIRules`).
    package var redirectUris: [String]
    /// Exact URLs a consent may send the user back to (same rules).
    package var consentRedirectUris: [String]?
    /// Scopes the client may ask for; default `openid`, `offline`, `consents`.
    package var scopes: [String]?
    /// A public client (a native or browser app) has no secret and proves itself with PKCE only.
    package var publicClient: Bool?
    /// `standard` (the default) or `fapi2`.
    package var profile: ClientProfile?
    /// How the client authenticates: `client_secret_basic` (a secret, also accepted in the form
    /// body), `private_key_jwt` (an assertion signed with a key of `jwks`) or `none` (a public
    /// client). The default is `private_key_jwt` for a `fapi2` client and for one that gives
    /// `jwks`, `none` for a public client, `client_secret_basic` otherwise.
    package var tokenEndpointAuthMethod: String?
    /// The client's public keys, a JWK Set, for `private_key_jwt`.
    package var jwks: JSONValue?
    /// The `authorization_details` types (RFC 9396) the client may ask users to approve:
    /// `payment_initiation`, `account_information`. None by default.
    package var authorizationDetailsTypes: [String]?
    /// Its pushed requests must be signed request objects (RFC 9101). Default: false.
    package var requireSignedRequestObject: Bool?
    /// Exact addresses the end-session endpoint may send the user back to (same rules as
    /// `redirectUris`).
    package var postLogoutRedirectUris: [String]?
    /// Where the client publishes its public keys (a JWK Set), instead of `jwks`: fetched
    /// through the same outbound rules as webhooks, cached, and fetched again when an
    /// assertion names a key id the copy lacks.
    package var jwksUri: String?
    /// Where the server posts a logout token when one of the client's sessions ends
    /// (OpenID Connect Back-Channel Logout).
    package var backchannelLogoutUri: String?
    /// CIBA: `poll` (the default) or `ping`.
    package var backchannelTokenDeliveryMode: String?
    /// CIBA ping mode: where the server tells the client that a request has its answer.
    package var backchannelClientNotificationEndpoint: String?

    package init(
        name: String, redirectUris: [String], consentRedirectUris: [String]? = nil, scopes: [String]? = nil,
        publicClient: Bool? = nil, profile: ClientProfile? = nil, tokenEndpointAuthMethod: String? = nil,
        jwks: JSONValue? = nil, authorizationDetailsTypes: [String]? = nil, requireSignedRequestObject: Bool? = nil,
        postLogoutRedirectUris: [String]? = nil, jwksUri: String? = nil, backchannelLogoutUri: String? = nil,
        backchannelTokenDeliveryMode: String? = nil, backchannelClientNotificationEndpoint: String? = nil
    ) {
        self.jwksUri = jwksUri
        self.backchannelLogoutUri = backchannelLogoutUri
        self.backchannelTokenDeliveryMode = backchannelTokenDeliveryMode
        self.backchannelClientNotificationEndpoint = backchannelClientNotificationEndpoint
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.authorizationDetailsTypes = authorizationDetailsTypes
        self.requireSignedRequestObject = requireSignedRequestObject
        self.name = name
        self.redirectUris = redirectUris
        self.consentRedirectUris = consentRedirectUris
        self.scopes = scopes
        self.publicClient = publicClient
        self.profile = profile
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.jwks = jwks
    }
}

/// A partner client as the admin API shows it. The secret appears once, in the answer to its
/// creation, and never again (only its hash is stored).
package struct PartnerClientResponse: Codable, Sendable, Equatable {
    package var clientId: String
    package var name: String
    package var redirectUris: [String]
    package var consentRedirectUris: [String]
    package var scopes: [String]
    package var publicClient: Bool
    package var createdAt: Date
    /// Only in the `201` of `POST /admin/v1/clients` for a client authenticated by a secret.
    package var clientSecret: String?
    package var profile: ClientProfile
    package var tokenEndpointAuthMethod: String
    /// A `fapi2` client starts a sign-in only with a pushed authorization request.
    package var requirePushedAuthorizationRequests: Bool
    /// The public keys of a `private_key_jwt` client.
    package var jwks: JSONValue?
    package var authorizationDetailsTypes: [String]
    package var requireSignedRequestObject: Bool
    package var postLogoutRedirectUris: [String]
    package var jwksUri: String?
    package var backchannelLogoutUri: String?
    /// `poll` or `ping`.
    package var backchannelTokenDeliveryMode: String
    package var backchannelClientNotificationEndpoint: String?

    package init(
        clientId: String, name: String, redirectUris: [String], consentRedirectUris: [String], scopes: [String],
        publicClient: Bool, createdAt: Date, clientSecret: String? = nil, profile: ClientProfile = .standard,
        tokenEndpointAuthMethod: String = "client_secret_basic", requirePushedAuthorizationRequests: Bool = false,
        jwks: JSONValue? = nil, authorizationDetailsTypes: [String] = [], requireSignedRequestObject: Bool = false,
        postLogoutRedirectUris: [String] = [], jwksUri: String? = nil, backchannelLogoutUri: String? = nil,
        backchannelTokenDeliveryMode: String = "poll", backchannelClientNotificationEndpoint: String? = nil
    ) {
        self.jwksUri = jwksUri
        self.backchannelLogoutUri = backchannelLogoutUri
        self.backchannelTokenDeliveryMode = backchannelTokenDeliveryMode
        self.backchannelClientNotificationEndpoint = backchannelClientNotificationEndpoint
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.authorizationDetailsTypes = authorizationDetailsTypes
        self.requireSignedRequestObject = requireSignedRequestObject
        self.profile = profile
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
        self.jwks = jwks
        self.clientId = clientId
        self.name = name
        self.redirectUris = redirectUris
        self.consentRedirectUris = consentRedirectUris
        self.scopes = scopes
        self.publicClient = publicClient
        self.createdAt = createdAt
        self.clientSecret = clientSecret
    }
}
