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

    package init(
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
package struct PartnerClientResponse: Codable, Sendable, Equatable {
    package var clientId: String
    package var name: String
    package var redirectUris: [String]
    package var consentRedirectUris: [String]
    package var scopes: [String]
    package var publicClient: Bool
    package var createdAt: Date
    /// Only in the `201` of `POST /admin/v1/clients` for a confidential client.
    package var clientSecret: String?

    package init(
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
