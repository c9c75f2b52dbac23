/// The answer to presenting an authorization code at the token endpoint.
public enum CodeRedemption: Sendable, Equatable {
    /// First use: the grant is now marked redeemed.
    case redeemed(AuthorizationGrantRecord)
    /// The code was redeemed before: a replay. The caller revokes what it issued (RFC 6749 §4.1.2).
    case alreadyRedeemed(AuthorizationGrantRecord)
    /// No such code.
    case unknown
}
