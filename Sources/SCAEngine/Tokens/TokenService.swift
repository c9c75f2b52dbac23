import Crypto
import Foundation
import JWTKit
import SCACore
import SCAStorage

/// Issues operation-scoped tokens when a challenge completes, rotates refresh tokens, revokes
/// sessions and answers introspection.
package struct TokenService: EngineService, Sendable {
    package let context: EngineContext
    package let signer: TokenSigner

    /// Operations whose tokens open a session that may be extended with a refresh token.
    /// One-shot operations (a payment, a settings change) get an access token alone.
    static func isSessionOperation(_ operation: OperationKind) -> Bool {
        operation == .login || operation == .accountInfo
    }

    /// The session a completed challenge opens and its first tokens, signed but not yet valid:
    /// the caller stores the session (with the challenge's completion, ``SCAStore/commitProof(_:)``)
    /// and appends ``PreparedTokens/audit`` with it, or throws the tokens away.
    /// - Parameter user: the user as the caller read it in this request, when it did.
    func prepare(for challenge: ChallengeRecord, userID: String, user: UserRecord? = nil) async throws -> PreparedTokens {
        let now = runtime.now()
        // A partner's challenge opens the partner's session: its refresh tokens and every access
        // token signed from it stay delegated, and removing the client ends it.
        let session = SessionRecord(
            id: runtime.makeTimeOrderedID(prefix: "ses"), userID: userID, operation: challenge.operation,
            challengeID: challenge.id, createdAt: now, lastUsedAt: now, clientID: challenge.delegation?.clientID)
        var refreshToken: String?
        var refreshRecord: RefreshTokenRecord?
        if Self.isSessionOperation(challenge.operation) {
            let token = runtime.makeSecret()
            refreshToken = token
            refreshRecord = RefreshTokenRecord(
                tokenHash: Self.hash(token), sessionID: session.id, issuedAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(configuration.refreshTokenLifetime)))
        }
        let response = try await tokens(for: session, challenge: challenge, refreshToken: refreshToken, now: now, user: user)
        let details = ["refreshToken": refreshToken == nil ? "no" : "yes"]
        return PreparedTokens(
            opening: SessionOpening(session: session, refreshToken: refreshRecord), response: response,
            audit: audit.prepare(
                .tokenIssued, userID: userID, challengeID: challenge.id, sessionID: session.id,
                operation: challenge.operation, details: details))
    }

    /// Uses a refresh token once and returns a new access token and refresh token.
    /// - Parameter clientID: the client the token must have been issued to: nil for the
    ///   first-party refresh, the authenticated client's id at the OAuth token endpoint. A
    ///   token of another holder is refused before it is used, so a partner's refresh token
    ///   presented on the first-party route is not burnt by the attempt either.
    /// - Throws: `Problem` `token.invalid`, `token.reused` (the family is now revoked),
    ///   `session.expired`, or 403 `token.delegated` / `token.not_delegated`.
    package func refresh(_ refreshToken: String, issuedTo clientID: String?) async throws -> TokenResponse {
        guard let bytes = Base64URL.decode(refreshToken), bytes.count == 32 else { throw Problem.tokenInvalid }
        var boundToKey = false
        if let sessionID = try await store.sessionID(forRefreshTokenHash: Self.hash(refreshToken)),
            let session = try await store.session(id: sessionID)
        {
            guard session.clientID == clientID else {
                // Another client's token answers as an unknown one would; a partner's on the
                // first-party route says why.
                if clientID == nil { throw Problem.tokenRefused(.delegatedToken) }
                throw Problem.tokenInvalid
            }
            boundToKey = session.keyThumbprint != nil
        }
        let now = runtime.now()
        // A refresh token bound to a key (its session's, DPoP) is worth nothing without that
        // key, so it is not rotated: a client whose answer was lost retries with the same token,
        // as FAPI 2.0 asks. A bearer refresh token is rotated, and a rotated one presented
        // again ends its session.
        let replacement = boundToKey ? refreshToken : runtime.makeSecret()
        let rotation = try await store.rotateRefreshToken(
            presentedHash: Self.hash(refreshToken), replacementHash: boundToKey ? nil : Self.hash(replacement),
            replacementExpiresAt: now.addingTimeInterval(TimeInterval(configuration.refreshTokenLifetime)), now: now,
            idleTimeout: TimeInterval(configuration.sessionIdleTimeout))
        switch rotation {
        case .rotated(let session):
            guard let challenge = try await store.challenge(id: session.challengeID) else { throw Problem.tokenInvalid }
            let response = try await tokens(for: session, challenge: challenge, refreshToken: replacement, now: now)
            await audit.record(
                .tokenRefreshed, userID: session.userID, challengeID: session.challengeID, sessionID: session.id,
                operation: session.operation)
            return response
        case .unknown: throw Problem.tokenInvalid
        case .reuseDetected(let sessionID):
            let userID = try? await store.session(id: sessionID)?.userID
            await audit.record(
                .tokenReuseDetected, outcome: "session_revoked", userID: userID, sessionID: sessionID)
            throw Problem.tokenReused
        case .sessionEnded: throw Problem.sessionExpired
        }
    }

    /// Ends the session of an access or refresh token. Unknown tokens are ignored (RFC 7009).
    func revoke(_ token: String) async throws {
        let now = runtime.now()
        if let claims = try? await signer.verify(token) {
            try await store.revokeSession(id: claims.sid, now: now)
            await audit.record(
                .tokenRevoked, userID: claims.sub.value, sessionID: claims.sid, details: ["tokenType": "access"])
        } else if let sessionID = try await store.sessionID(forRefreshTokenHash: Self.hash(token)) {
            try await store.revokeSession(id: sessionID, now: now)
            let userID = try? await store.session(id: sessionID)?.userID
            await audit.record(.tokenRevoked, userID: userID, sessionID: sessionID, details: ["tokenType": "refresh"])
        }
    }

    /// RFC 7662-style introspection, narrowed by operation and transaction, optionally
    /// consuming the token. A token consumed already is inactive.
    /// - Throws: `Problem.invalidRequest` for a malformed transaction,
    ///   `Problem.transactionRequired` for `consume: true` without the transaction of a
    ///   transaction-bound (payment) token.
    package func introspect(_ request: IntrospectRequest) async throws -> IntrospectResponse {
        var expectedDigest: String?
        if let transaction = request.transaction {
            switch TransactionRules.normalized(transaction) {
            case .success(let normalized): expectedDigest = normalized.digest
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        // Burning a payment token without comparing its transaction would accept it for any
        // payment: a consuming introspection must name the transaction.
        if request.consume == true, expectedDigest == nil, request.operation == .payment {
            throw Problem.transactionRequired
        }
        let inactive = IntrospectResponse(active: false)
        let now = runtime.now()
        guard let claims = await verifiedClaims(request.token, now: now) else { return inactive }
        // An enrolment token is no sign-in: active only to whoever asks for exactly that.
        if claims.op == .enrolment, request.operation != .enrolment { return inactive }
        if let operation = request.operation, operation != claims.op { return inactive }
        if request.consume == true, expectedDigest == nil, claims.txn != nil { throw Problem.transactionRequired }
        if let expectedDigest, claims.txn != expectedDigest { return inactive }
        // A token used up (by a consuming introspection or a route) authorises nothing more.
        if try await store.isTokenConsumed(id: claims.jti.value, now: now) { return inactive }
        guard let session = try await activeSession(claims, now: now), session.clientID == claims.clientID else {
            return inactive
        }
        if request.consume == true {
            guard try await store.consumeToken(id: claims.jti.value, expiresAt: claims.exp.value, now: now) else {
                return inactive
            }
        }
        var response = IntrospectResponse(active: true)
        response.tokenUse = claims.clientID == nil ? "first_party" : "delegated"
        response.aud = claims.aud.value
        response.clientID = claims.clientID
        response.scope = claims.scope
        response.consentID = claims.consentID
        response.operationID = claims.operationID
        response.authorizationDetails = claims.authorizationDetails
        response.cnf = session.keyThumbprint.map(TokenConfirmation.init(jkt:))
        response.sub = claims.sub.value
        response.op = claims.op
        response.sid = claims.sid
        response.jti = claims.jti.value
        response.amr = claims.amr
        response.acr = claims.acr
        response.txn = claims.txn
        response.exemption = claims.exemption
        response.iat = Int(claims.iat.value.timeIntervalSince1970)
        response.exp = Int(claims.exp.value.timeIntervalSince1970)
        response.roles = claims.roles ?? []
        response.permissions = claims.permissions ?? []
        response.authTime = claims.authTime.map { Int($0.value.timeIntervalSince1970) }
        // Profile claims: the verified token's, named by `tokenClaims`.
        if !configuration.tokenClaims.isEmpty, let profiled = try? await signer.verifyProfiled(request.token) {
            response.profileClaims = profiled.profile.filter { configuration.tokenClaims.contains($0.key) }
        }
        return response
    }

    /// The claims of a bearer token that may do one of `operations` at a route of class `route`.
    /// - Parameters:
    ///   - authorization: the `Authorization` header.
    ///   - route: what the route is (``TokenAccess`` decides who may use it); the bank's own
    ///     API unless the caller says otherwise, so a route that forgets to say is closed to
    ///     partners.
    ///   - consume: burn the token, so it authorises this one action only.
    /// - Throws: `Problem` 401 (`auth.unauthorized`, `token.invalid`, `session.expired`), 403
    ///   `token.delegated` / `token.not_delegated` / `token.scope_missing` for a token of
    ///   another holder, or `auth.forbidden` for a token of another operation.
    package func authorize(
        _ authorization: String?, for operations: Set<OperationKind>, at route: RouteClass = .firstParty, consume: Bool
    ) async throws -> AccessTokenClaims {
        guard let token = BearerCredentials.token(in: authorization) else { throw Problem.unauthorized }
        return try await authorize(token: token, for: operations, at: route, consume: consume)
    }

    /// As ``authorize(_:for:at:consume:)``, for a route that takes sender-constrained tokens: a
    /// token whose session is bound to a key (DPoP) is accepted only as `Authorization: DPoP`
    /// with a proof of that key for this request, each proof once.
    package func authorize(
        _ presented: PresentedToken, for operations: Set<OperationKind>, at route: RouteClass, consume: Bool
    ) async throws -> AccessTokenClaims {
        guard let token = presented.token else { throw Problem.unauthorized }
        return try await authorize(token: token.value, for: operations, at: route, consume: consume, presented: presented)
    }

    /// As ``authorize(_:for:at:consume:)``, for the token itself. Without `presented`, a token
    /// bound to a key is refused: the route cannot check its proof.
    func authorize(
        token: String, for operations: Set<OperationKind>, at route: RouteClass = .firstParty, consume: Bool,
        presented: PresentedToken? = nil
    ) async throws -> AccessTokenClaims {
        let now = runtime.now()
        guard let claims = await verifiedClaims(token, now: now) else { throw Problem.tokenInvalid }
        // An enrolment token adds a second element and does nothing else.
        if claims.op == .enrolment, !operations.contains(.enrolment) { throw Problem.enrolmentOnly }
        if case .refused(let refusal) = TokenAccess.decide(claims.holder, at: route) {
            throw Problem.tokenRefused(refusal)
        }
        guard let session = try await activeSession(claims, now: now) else { throw Problem.sessionExpired }
        // The session says who its tokens are for, whatever a token says: one signed before
        // the session was named a partner's (an upgrade) is neither first-party nor the partner's.
        guard session.clientID == claims.clientID else { throw Problem.tokenInvalid }
        try await checkSender(of: token, claims: claims, session: session, presented: presented, now: now)
        guard operations.contains(claims.op) else { throw Problem.forbidden }
        if consume { try await self.consume(claims) }
        return claims
    }

    /// A token of a session bound to a key is used only with a fresh proof of that key (its
    /// `jti` burned on every instance); a bearer token is never sent as `DPoP`. The session
    /// decides, not the token: a token signed before the binding is bound all the same.
    private func checkSender(
        of token: String, claims: AccessTokenClaims, session: SessionRecord, presented: PresentedToken?, now: Date
    ) async throws {
        let isDPoP = presented?.token?.isDPoP ?? false
        guard let thumbprint = session.keyThumbprint else {
            if isDPoP { throw Problem.tokenInvalid.saying("this token is not bound to a key: send it as Authorization: Bearer") }
            return
        }
        guard let presented, isDPoP, let proof = presented.proof else {
            throw Problem.tokenInvalid.saying("this token is bound to a key: send it as Authorization: DPoP, with a DPoP proof")
        }
        let verified: DPoPProof
        do {
            verified = try await DPoPProof.verify(
                proof, for: DPoPProof.Request(method: presented.method, url: presented.url, accessToken: token), now: now)
        } catch {
            throw Problem.tokenInvalid.saying(error.reason)
        }
        guard verified.thumbprint == thumbprint, claims.cnf.map({ $0.jkt == thumbprint }) ?? true else {
            throw Problem.tokenInvalid.saying("the DPoP proof is signed by another key than the token's")
        }
        guard try await store.markSignatureUsed(verified.burn, expiresAt: verified.burnExpiresAt, now: now) else {
            throw Problem.tokenInvalid.saying("the DPoP proof was used already (its jti)")
        }
    }

    /// A fresh access token for a session just bound to a key: the same grant, now with `cnf`.
    package func reissue(forSession id: String) async throws -> TokenResponse {
        guard let session = try await store.session(id: id), session.revokedAt == nil,
            let challenge = try await store.challenge(id: session.challengeID)
        else { throw Problem.tokenInvalid }
        return try await tokens(for: session, challenge: challenge, refreshToken: nil, now: runtime.now())
    }

    /// Burns an authorised token so it serves one action only.
    /// - Throws: `Problem.tokenInvalid` when it was used already.
    func consume(_ claims: AccessTokenClaims) async throws {
        guard try await store.consumeToken(id: claims.jti.value, expiresAt: claims.exp.value, now: runtime.now()) else {
            throw Problem.tokenInvalid
        }
    }

    package var jwks: JSONWebKeySet { signer.jwks }

    /// The claims of an access token about to be handed to a partner (an authorization code's,
    /// CIBA's, a consent's or an operation's), checked to be that partner's own: the one guard
    /// of every hand-off, so a first-party token never leaves through a partner's route.
    /// - Throws: `Problem.tokenInvalid` (the flow must start again) for a token of another holder.
    package func handOff(_ accessToken: String, to clientID: String) async throws -> AccessTokenClaims {
        let claims = try await signer.verify(accessToken)
        guard claims.clientID == clientID else {
            var problem = Problem.tokenInvalid
            problem.detail = "The approval was not made for this application; please start again."
            throw problem
        }
        return claims
    }

    /// Signature, issuer, audience and lifetime, against the injected clock; nil if any fails.
    /// A first-party token's audience is the API's; a delegated token's is its client alone,
    /// so a resource server that checks the audience offline never takes it for the user's own.
    func verifiedClaims(_ token: String, now: Date) async -> AccessTokenClaims? {
        guard token.utf8.count <= 8_192, let claims = try? await signer.verify(token) else { return nil }
        let audience = claims.clientID.map { [$0] } ?? [configuration.audience]
        guard claims.iss.value == configuration.issuer, claims.aud.value == audience, claims.azp == claims.clientID,
            claims.exp.value > now, claims.iat.value <= now.addingTimeInterval(60)
        else { return nil }
        return claims
    }

    /// Marks a use of the token's session; nil when it was revoked or idle too long.
    private func activeSession(_ claims: AccessTokenClaims, now: Date) async throws -> SessionRecord? {
        if case .active(let session) = try await store.useSession(
            id: claims.sid, now: now, idleTimeout: TimeInterval(configuration.sessionIdleTimeout))
        {
            return session
        }
        return nil
    }

    /// - Parameter loaded: the user as just read by the caller (a proof's), so it is not read again.
    private func tokens(
        for session: SessionRecord, challenge: ChallengeRecord, refreshToken: String?, now: Date, user loaded: UserRecord? = nil
    ) async throws -> TokenResponse {
        // JWT times are whole seconds; truncate so `iat`/`exp` round-trip exactly.
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        // Read at every signing, refreshes included, so a role change shows at the next token.
        let user = if let loaded, loaded.id == session.userID { loaded } else { try await store.user(id: session.userID) }
        let roles = RolePermissions.normalized(user?.roles ?? [])
        let delegation = challenge.delegation
        var claims = AccessTokenClaims(
            iss: IssuerClaim(value: configuration.issuer), sub: SubjectClaim(value: session.userID),
            aud: AudienceClaim(value: [delegation?.clientID ?? configuration.audience]), iat: IssuedAtClaim(value: issuedAt),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(TimeInterval(configuration.accessTokenLifetime))),
            jti: IDClaim(value: runtime.makeID(prefix: "at")), sid: session.id, op: challenge.operation,
            amr: challenge.authenticationMethodReferences,
            // Categories, not methods: a user-verified passkey proves two on its own.
            acr: challenge.exemption == nil ? TokenResponse.acr(for: challenge.acceptedCategories) : Exemption.exemptACR,
            txn: challenge.transactionDigest, exemption: challenge.exemption)
        claims.cnf = session.keyThumbprint.map { AccessTokenClaims.Confirmation(jkt: $0) }
        claims.authTime = IssuedAtClaim(value: Date(timeIntervalSince1970: session.createdAt.timeIntervalSince1970.rounded(.down)))
        var profile: [String: String] = [:]
        if let delegation {
            // A partner's token names its client, scopes and grant, and carries neither the
            // user's roles (no operator power) nor profile claims (it reads the user through
            // userinfo, within its scopes).
            claims.clientID = delegation.clientID
            claims.azp = delegation.clientID
            claims.scope = delegation.scopes.isEmpty ? nil : delegation.scopes.joined(separator: " ")
            claims.consentID = delegation.consentID
            claims.operationID = delegation.operationID
            if let detail = delegation.authorizationDetail {
                claims.authorizationDetails = [detail]
                // Account information ends when the user said: no token, refreshed or not,
                // outlives it.
                if case .accountInformation(let access) = detail, let expiry = access.expiry {
                    guard expiry > now else { throw Problem.sessionExpired }
                    claims.exp = ExpirationClaim(value: min(claims.exp.value, expiry))
                }
            }
        } else {
            claims.roles = roles
            claims.permissions = RolePermissions(configuration.roles).permissions(for: roles)
            // The profile claims `tokenClaims` asks for, read at every signing as roles are.
            profile = user.map { ProfiledAccessClaims.profile(of: $0, names: configuration.tokenClaims) } ?? [:]
        }
        return TokenResponse(
            accessToken: try signer.sign(ProfiledAccessClaims(claims: claims, profile: profile)),
            expiresIn: configuration.accessTokenLifetime,
            refreshToken: refreshToken, operation: challenge.operation, amr: challenge.authenticationMethodReferences, acr: claims.acr,
            exemption: challenge.exemption)
    }

    /// The user's roles and what they grant, now, for an id_token: the partner reads who the
    /// user is from it (a delegated access token carries neither, so it opens no admin route).
    package func roles(of userID: String) async throws -> (roles: [String], permissions: [String]) {
        let roles = RolePermissions.normalized(try await store.user(id: userID)?.roles ?? [])
        return (roles, RolePermissions(configuration.roles).permissions(for: roles))
    }

    /// Refresh tokens are stored as SHA-256: high-entropy secrets need no slow hash.
    package static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }
}
