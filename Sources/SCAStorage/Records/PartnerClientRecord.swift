import Foundation
import SCACore

/// A partner application allowed to send users to the hosted pages.
public struct PartnerClientRecord: Sendable, Equatable {
    /// The `client_id`.
    public var id: String
    public var name: String
    /// SHA-256 of the client secret; nil for a public client (PKCE only).
    public var secretHash: [UInt8]?
    /// Exact redirect URIs of the sign-in flow.
    public var redirectURIs: [String]
    /// Exact URLs consents may send the user back to.
    public var consentRedirectURIs: [String]
    public var scopes: [String]
    public var createdAt: Date
    public var profile: ClientProfile
    /// The client's public keys as a JWK Set (JSON), for `private_key_jwt`; nil when it has none.
    public var jwks: String?
    /// The `authorization_details` types (RFC 9396) the client may ask users to approve;
    /// empty for a client that asks by scope only.
    public var authorizationDetailsTypes: [String]
    /// Its pushed authorization requests must be signed request objects (RFC 9101 `request`).
    public var requireSignedRequestObject: Bool
    /// Exact addresses the end-session endpoint may send the user back to.
    public var postLogoutRedirectURIs: [String]
    /// Where the client's public keys are published, instead of `jwks`: fetched through the
    /// outbound rules and cached.
    public var jwksURI: String?
    /// Where a logout token goes when one of the client's sessions ends (OpenID Connect
    /// Back-Channel Logout); nil when the client is not told.
    public var backchannelLogoutURI: String?
    /// CIBA ping mode: where the client is told that a request has its answer. Nil for poll mode.
    public var cibaNotificationEndpoint: String?

    public init(
        id: String, name: String, secretHash: [UInt8]?, redirectURIs: [String], consentRedirectURIs: [String],
        scopes: [String], createdAt: Date, profile: ClientProfile = .standard, jwks: String? = nil,
        authorizationDetailsTypes: [String] = [], requireSignedRequestObject: Bool = false, postLogoutRedirectURIs: [String] = [],
        jwksURI: String? = nil, backchannelLogoutURI: String? = nil, cibaNotificationEndpoint: String? = nil
    ) {
        self.jwksURI = jwksURI
        self.backchannelLogoutURI = backchannelLogoutURI
        self.cibaNotificationEndpoint = cibaNotificationEndpoint
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.requireSignedRequestObject = requireSignedRequestObject
        self.id = id
        self.name = name
        self.secretHash = secretHash
        self.redirectURIs = redirectURIs
        self.consentRedirectURIs = consentRedirectURIs
        self.scopes = scopes
        self.createdAt = createdAt
        self.profile = profile
        self.jwks = jwks
        self.authorizationDetailsTypes = authorizationDetailsTypes
    }
}
