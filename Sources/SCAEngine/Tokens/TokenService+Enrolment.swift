import Foundation
import JWTKit
import SCACore
import SCAStorage

// Sign-up or in: the enrolment token.
extension TokenService {
    /// Ten minutes: time to choose a password or scan a TOTP seed, and no longer.
    static let enrolmentTokenLifetime = 600

    /// Signs the one token a sign-up answers with: `op` `enrolment`, `acr` `single-factor`
    /// (one element, the mailbox), ten minutes, no refresh token, in a session of its own.
    func issueEnrolment(for challenge: ChallengeRecord, userID: String) async throws -> TokenResponse {
        let now = runtime.now()
        let session = SessionRecord(
            id: runtime.makeTimeOrderedID(prefix: "ses"), userID: userID, operation: .enrolment, challengeID: challenge.id,
            createdAt: now, lastUsedAt: now)
        try await store.createSession(session, refreshToken: nil)
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        var claims = AccessTokenClaims(
            iss: IssuerClaim(value: configuration.issuer), sub: SubjectClaim(value: userID),
            aud: AudienceClaim(value: [configuration.audience]), iat: IssuedAtClaim(value: issuedAt),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(TimeInterval(Self.enrolmentTokenLifetime))),
            jti: IDClaim(value: runtime.makeID(prefix: "at")), sid: session.id, op: .enrolment,
            amr: challenge.acceptedMethods, acr: TokenResponse.singleFactorACR)
        claims.authTime = IssuedAtClaim(value: issuedAt)
        let token = try signer.sign(claims)
        await audit.record(
            .tokenIssued, userID: userID, challengeID: challenge.id, sessionID: session.id, operation: .enrolment,
            details: ["refreshToken": "no"])
        return TokenResponse(
            accessToken: token, expiresIn: Self.enrolmentTokenLifetime, refreshToken: nil, operation: .enrolment,
            amr: challenge.acceptedMethods, acr: TokenResponse.singleFactorACR)
    }

    /// The claims of an enrolment token, not yet burnt: the caller checks what it can and then
    /// consumes it (``consume(_:)``), so it serves once. Its session is not subject to the idle
    /// timeout (the token itself lives ten minutes), only to revocation.
    /// - Throws: `Problem` 401 `auth.unauthorized`, `token.invalid` (expired, forged, used),
    ///   `session.expired` (revoked); 403 `auth.forbidden` for a token of another operation.
    func authorizeEnrolment(_ authorization: String?) async throws -> AccessTokenClaims {
        guard let token = BearerCredentials.token(in: authorization) else { throw Problem.unauthorized }
        let now = runtime.now()
        guard let claims = await verifiedClaims(token, now: now) else { throw Problem.tokenInvalid }
        guard claims.op == .enrolment else {
            var problem = Problem.forbidden
            problem.detail = "Adding a second element needs the enrolment token a sign-up answered with."
            throw problem
        }
        // Used already: refused as such before anything else is looked at.
        if try await store.isTokenConsumed(id: claims.jti.value, now: now) { throw Problem.tokenInvalid }
        guard let session = try await store.session(id: claims.sid), session.revokedAt == nil else {
            throw Problem.sessionExpired
        }
        return claims
    }
}
