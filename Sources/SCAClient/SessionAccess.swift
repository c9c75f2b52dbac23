import Foundation
import SCACore

/// The roles and permissions of the signed-in session, as the server put them in its access
/// token (sorted, each once). Read from the token without verifying it, for display and for
/// choosing what to offer: the server and the services behind it check the token on use.
public struct SessionAccess: Sendable, Equatable {
    /// The user's roles when the token was signed.
    public var roles: [String]
    /// What those roles grant.
    public var permissions: [String]
    /// When the user authenticated (the session's start, kept through refreshes), if the
    /// token says. Admin routes want it at most 5 minutes old.
    public var authenticatedAt: Date?

    public init(roles: [String], permissions: [String], authenticatedAt: Date? = nil) {
        self.roles = roles
        self.permissions = permissions
        self.authenticatedAt = authenticatedAt
    }

    /// The claims of a compact JWS access token; nil when it is not one. A token from a server
    /// without roles reads as no roles and no permissions.
    public init?(accessToken: String) {
        struct Claims: Decodable {
            var roles: [String]?
            var permissions: [String]?
            var auth_time: Int?
        }
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode(Claims.self, from: Data(payload))
        else { return nil }
        self.init(
            roles: claims.roles ?? [], permissions: claims.permissions ?? [],
            authenticatedAt: claims.auth_time.map { Date(timeIntervalSince1970: TimeInterval($0)) })
    }
}
