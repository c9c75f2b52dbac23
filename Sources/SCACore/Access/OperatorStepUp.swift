import Foundation

/// Whether a user's access token may act on the admin API: a back-office operator's privileged
/// action is step-up protected. The token must carry the permission, have been earned with
/// strong customer authentication (`acr` exactly `psd2.sca`, proofs from two categories at
/// least: not an exemption, not a single factor), and be fresh: both its authentication
/// (`auth_time`) and its issue (`iat`) at most ``maximumAge`` old. A refreshed token keeps
/// its session's `auth_time`, so a refresh never renews a step-up.
package struct OperatorStepUp: Sendable, Equatable {
    /// Five minutes, as the RTS allow a session to stay idle.
    package static let maximumAge: TimeInterval = 300

    package var permissions: [String]
    package var acr: String
    package var amr: [AuthenticationMethod]
    /// When the user authenticated (the session's start); nil in a token without it.
    package var authTime: Date?
    package var issuedAt: Date

    package init(permissions: [String], acr: String, amr: [AuthenticationMethod], authTime: Date?, issuedAt: Date) {
        self.permissions = permissions
        self.acr = acr
        self.amr = amr
        self.authTime = authTime
        self.issuedAt = issuedAt
    }

    /// Why a token is refused, in words an operator can act on.
    package enum Refusal: Error, Equatable, Sendable {
        /// The token's roles do not grant the scope.
        case missingPermission(AdminScope)
        /// Not earned with SCA (an exemption, or fewer than two categories).
        case notStrong
        /// Authenticated or issued more than five minutes ago.
        case tooOld
    }

    /// - Returns: nil when the token may use `scope` at `now`, otherwise why not. The
    ///   permission is checked first, so a refusal names it whatever else is wrong.
    package func refusal(for scope: AdminScope, now: Date) -> Refusal? {
        guard permissions.contains(scope.rawValue) else { return .missingPermission(scope) }
        guard acr == TokenResponse.scaACR, Set(amr.map(\.category)).count >= 2 else { return .notStrong }
        guard let authTime, now.timeIntervalSince(authTime) <= Self.maximumAge,
            now.timeIntervalSince(issuedAt) <= Self.maximumAge
        else { return .tooOld }
        return nil
    }
}
