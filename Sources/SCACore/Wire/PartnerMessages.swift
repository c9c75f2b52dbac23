import Foundation

/// `POST /admin/v1/clients`: registers a partner application.
public struct CreatePartnerClientRequest: Codable, Sendable, Equatable {
    public var name: String
    /// Exact redirect URIs of the sign-in flow (see `RedirectURIRules`).
    public var redirectUris: [String]
    /// Exact URLs a consent may send the user back to (same rules).
    public var consentRedirectUris: [String]?
    /// Scopes the client may ask for; default `openid`, `offline`, `consents`.
    public var scopes: [String]?
    /// A public client (a native or browser app) has no secret and proves itself with PKCE only.
    public var publicClient: Bool?

    public init(
        name: String, redirectUris: [String], consentRedirectUris: [String]? = nil, scopes: [String]? = nil,
        publicClient: Bool? = nil
    ) {
        self.name = name
        self.redirectUris = redirectUris
        self.consentRedirectUris = consentRedirectUris
        self.scopes = scopes
        self.publicClient = publicClient
    }
}

/// A partner client as the admin API shows it. The secret appears once, in the answer to its
/// creation, and never again (only its hash is stored).
public struct PartnerClientResponse: Codable, Sendable, Equatable {
    public var clientId: String
    public var name: String
    public var redirectUris: [String]
    public var consentRedirectUris: [String]
    public var scopes: [String]
    public var publicClient: Bool
    public var createdAt: Date
    /// Only in the `201` of `POST /admin/v1/clients` for a confidential client.
    public var clientSecret: String?

    public init(
        clientId: String, name: String, redirectUris: [String], consentRedirectUris: [String], scopes: [String],
        publicClient: Bool, createdAt: Date, clientSecret: String? = nil
    ) {
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
