import Foundation
import JWTKit

/// A logout token (OpenID Connect Back-Channel Logout 1.0, section 2.4): tells a partner that
/// the session `sid` of user `sub`, which its id_token named, has ended. It carries no `nonce`,
/// so no verifier takes it for an id_token, and its `typ` is `logout+jwt`.
struct LogoutTokenClaims: JWTPayload, Equatable {
    static let type = "logout+jwt"
    static let event = "http://schemas.openid.net/event/backchannel-logout"
    /// Its life: long enough for a slow receiver, short enough that a copy is soon worthless.
    /// Each attempt signs a fresh one under the same `jti`.
    static let lifetime: TimeInterval = 120

    struct Empty: Codable, Equatable {}

    var iss: IssuerClaim
    var sub: SubjectClaim
    /// The client id.
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var jti: IDClaim
    var sid: String
    var events: [String: Empty]

    init(issuer: String, userID: String, sessionID: String, clientID: String, id: String, now: Date) {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        iss = IssuerClaim(value: issuer)
        sub = SubjectClaim(value: userID)
        aud = AudienceClaim(value: [clientID])
        iat = IssuedAtClaim(value: issuedAt)
        exp = ExpirationClaim(value: issuedAt.addingTimeInterval(Self.lifetime))
        jti = IDClaim(value: id)
        sid = sessionID
        events = [Self.event: Empty()]
    }

    /// Signature only; the partner checks the rest.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
