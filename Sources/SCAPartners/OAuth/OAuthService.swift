import Crypto
import Foundation
import HTTPTypes
import JWTKit
import SCACore
import SCAEngine
import SCAStorage

/// The OAuth 2.0 authorization code flow with PKCE and OpenID Connect for partner clients:
/// checks authorization requests, turns a sign-in into a single-use code, exchanges codes and
/// refresh tokens, revokes, and answers userinfo.
package struct OAuthService: EngineService, Sendable {
    package let context: EngineContext
    let partners: PartnerService
    let tokens: TokenService

    /// Seconds an authorization code lives (RFC 6749 §4.1.2 recommends at most ten minutes).
    static let codeLifetime: TimeInterval = 60
    /// Seconds an id_token is valid.
    static let idTokenLifetime: TimeInterval = 300
    static let sealingContext = "authorization-grant"

    /// What to do with an authorization request.
    package enum AuthorizeDecision: Sendable {
        /// The client or redirect URI cannot be trusted: an error page, never a redirect.
        /// `404` for a client that does not exist, `403` for one asking to send the user to an
        /// address it did not register (the server refuses to act for it there). The message is
        /// the catalogue key of what the page says.
        case errorPage(messageKey: String, status: HTTPResponse.Status)
        /// Another error, told to the registered redirect URI (RFC 6749 §4.1.2.1).
        case redirect(String)
        /// Go on to the sign-in page.
        case signIn(AuthorizationRequest, clientName: String)
    }

    var issuer: String { configuration.baseURL }

    /// Checks the client and its exact redirect URI first; only then may anything be told to
    /// that URI. With `request_uri` the request is the one the client pushed (``push(_:authorization:)``)
    /// and the query's other parameters count for nothing (RFC 9126 §4). A `fapi2` client
    /// starts only that way.
    package func authorize(_ query: [String: String]) async throws -> AuthorizeDecision {
        guard let clientID = query["client_id"], let client = try await partners.find(clientID) else {
            return .errorPage(messageKey: "signin.error.unknownClient", status: .notFound)
        }
        if let requestURI = query["request_uri"] { return try await pushed(requestURI, client: client) }
        guard let redirectURI = query["redirect_uri"], RedirectURIRules.matches(redirectURI, registered: client.redirectURIs) else {
            return .errorPage(messageKey: "signin.error.unregisteredRedirect", status: .forbidden)
        }
        let refusal: OAuthError
        if query["request"] != nil {
            refusal = OAuthError(
                status: 400, error: "request_not_supported", description: "request objects are pushed to \(issuer)/oauth2/par")
        } else if client.profile == .fapi2 {
            refusal = .invalidRequest("this client must push its authorization request to \(issuer)/oauth2/par")
        } else {
            switch Self.check(query, client: client, redirectURI: redirectURI, now: runtime.now()) {
            case .success(let request): return .signIn(request, clientName: client.name)
            case .failure(let error): refusal = error
            }
        }
        // The refused request's own response_mode, read leniently: a client that asked for JWT
        // responses gets its error as one too.
        let jwt = query["response_mode"].map(AuthorizationRequest.jwtResponseModes.contains) ?? false
        return .redirect(try respond(
            [("error", refusal.error), ("error_description", refusal.description)], state: query["state"], to: redirectURI,
            clientID: client.id, jwt: jwt))
    }

    /// The authorization request `parameters` make for `client`, whose redirect URI is checked
    /// already, or the RFC 6749 error that refuses it.
    /// - Parameter now: for the end of an account access in `authorization_details`.
    static func check(
        _ parameters: [String: String], client: PartnerClientRecord, redirectURI: String, now: Date
    ) -> Result<AuthorizationRequest, OAuthError> {
        func refuse(_ error: String, _ description: String) -> Result<AuthorizationRequest, OAuthError> {
            .failure(OAuthError(status: 400, error: error, description: description))
        }
        guard parameters["response_type"] == "code" else {
            return refuse("unsupported_response_type", "response_type must be code")
        }
        var detail: AuthorizationDetail?
        if let text = parameters["authorization_details"] {
            switch AuthorizationDetailsRules.parse(text, allowedTypes: client.authorizationDetailsTypes, now: now) {
            case .success(let parsed): detail = parsed
            case .failure(let violation): return refuse("invalid_authorization_details", violation.reason)
            }
        }
        let scopes = (parameters["scope"] ?? "").split(separator: " ").map(String.init)
        // With authorization_details the scope may be empty (RFC 9396 §3): the entry says what is asked.
        guard !scopes.isEmpty || detail != nil else {
            return refuse("invalid_scope", "scope is required")
        }
        guard scopes.allSatisfy(client.scopes.contains) else {
            return refuse("invalid_scope", "scope names a scope the client may not ask for")
        }
        guard let challenge = parameters["code_challenge"] else {
            return refuse("invalid_request", "code_challenge (PKCE, S256) is required")
        }
        guard parameters["code_challenge_method"] == PKCE.method else {
            return refuse("invalid_request", "code_challenge_method must be S256; plain is not accepted")
        }
        guard PKCE.isWellFormedChallenge(challenge) else {
            return refuse("invalid_request", "code_challenge must be 43 base64url characters")
        }
        let state = parameters["state"]
        if let state, state.utf8.count > 512 { return refuse("invalid_request", "state is too long") }
        if let nonce = parameters["nonce"], nonce.utf8.count > 512 { return refuse("invalid_request", "nonce is too long") }
        // OpenID Connect Core §3.1.2.1. Every sign-in here is a new one (there is no sign-in
        // session to reuse), so `prompt=login` and any `max_age` are always met, and
        // `prompt=none` never can be.
        let prompts = Set((parameters["prompt"] ?? "").split(separator: " ").map(String.init))
        guard prompts.isSubset(of: ["none", "login", "consent", "select_account"]) else {
            return refuse("invalid_request", "prompt must be none, login, consent or select_account")
        }
        if prompts.contains("none") {
            guard prompts.count == 1 else { return refuse("invalid_request", "prompt=none cannot be combined with other values") }
            return refuse("login_required", "the user must sign in")
        }
        if let maxAge = parameters["max_age"], Int(maxAge).map({ $0 < 0 }) ?? true {
            return refuse("invalid_request", "max_age must be a whole number of seconds")
        }
        let responseMode = parameters["response_mode"]
        if let responseMode, responseMode != "query", !AuthorizationRequest.jwtResponseModes.contains(responseMode) {
            return refuse("invalid_request", "response_mode must be query, jwt or query.jwt")
        }
        var acrValues: [String]?
        if let asked = parameters["acr_values"] {
            let values = asked.split(separator: " ").map(String.init)
            // Only values this server can earn; an unknown one is not silently dropped.
            guard !values.isEmpty, values.contains(where: OpenIDConfiguration.supportedACRValues.contains) else {
                return refuse("unmet_authentication_requirements", "acr_values names no value this server can meet")
            }
            acrValues = values
        }
        // Languages are hints: a tag naming no shipped language is passed over, never refused.
        // Only their shape is checked, so the sealed page state stays small.
        for name in ["ui_locales", "claims_locales"] {
            if let tags = parameters[name], !isLanguageTagList(tags) {
                return refuse("invalid_request", "\(name) must be space-separated language tags")
            }
        }
        return .success(
            AuthorizationRequest(
                clientID: client.id, redirectURI: redirectURI, scopes: scopes, state: state, nonce: parameters["nonce"],
                codeChallenge: challenge, acrValues: acrValues, uiLocales: parameters["ui_locales"], authorizationDetail: detail,
                responseMode: responseMode))
    }

    // MARK: Pushed authorization requests

    /// Seconds a `request_uri` lives: long enough for the browser to be sent on, short enough
    /// that a leaked one is worth nothing (RFC 9126 §2.2).
    static let pushedRequestLifetime: TimeInterval = 60
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    static let pushedSealingContext = "pushed-authorization-request"

    /// `POST /oauth2/par` (RFC 9126): an authenticated client pushes its authorization request
    /// and gets a `request_uri` for the browser, used once within ``pushedRequestLifetime``.
    /// The request is sealed into the `request_uri` itself, so that any instance can open it;
    /// its single use is burned in the store when the browser brings it.
    /// - Throws: `OAuthError` 401 `invalid_client`, 400 with what the request breaks.
    package func push(_ pushedForm: [String: String], authorization: String?) async throws -> PushedAuthorizationResponse {
        let client = try await authenticate(pushedForm, authorization: authorization)
        guard pushedForm["request_uri"] == nil else { throw OAuthError.invalidRequest("request_uri cannot be pushed") }
        let form = try await parameters(of: pushedForm, client: client)
        guard let redirectURI = form["redirect_uri"] else { throw OAuthError.invalidRequest("redirect_uri is required") }
        guard RedirectURIRules.matches(redirectURI, registered: client.redirectURIs) else {
            throw OAuthError.invalidRequest("redirect_uri is not registered for this client")
        }
        let request = try Self.check(form, client: client, redirectURI: redirectURI, now: runtime.now()).get()
        let expiresAt = runtime.now().addingTimeInterval(Self.pushedRequestLifetime)
        let pushed = PushedAuthorizationRequest(request: request, expiresAt: expiresAt)
        let sealed = try box.seal(Array(try WireJSON.encoder().encode(pushed)), context: Self.pushedSealingContext)
        return PushedAuthorizationResponse(
            requestURI: Self.requestURIPrefix + Base64URL.encode(sealed), expiresIn: Int(Self.pushedRequestLifetime))
    }

    /// The parameters a pushed request asks with: those of its signed request object (RFC 9101)
    /// and no others, or the form's own for a client that need not sign.
    private func parameters(of form: [String: String], client: PartnerClientRecord) async throws -> [String: String] {
        guard let request = form["request"] else {
            if client.requireSignedRequestObject {
                throw OAuthError.invalidRequest("this client's pushed requests must be signed request objects (request)")
            }
            return form
        }
        guard PartnerService.AuthenticationMethod(of: client) == .privateKeyJWT else {
            throw OAuthError(status: 400, error: "invalid_request_object", description: "this client has no registered keys to sign a request object with")
        }
        do {
            let keys = try await partners.keys(of: client, checking: request)
            return try await RequestObject.verify(
                request, clientID: client.id, profile: client.profile, keys: keys, issuer: issuer, now: runtime.now()
            ).parameters
        } catch {
            throw OAuthError(status: 400, error: "invalid_request_object", description: error.reason)
        }
    }

    /// The sign-in a `request_uri` stands for, the first time it comes within its lifetime and
    /// for the client that pushed it; an error page otherwise (no redirect URI is known to be
    /// the client's then).
    private func pushed(_ requestURI: String, client: PartnerClientRecord) async throws -> AuthorizeDecision {
        let refused = AuthorizeDecision.errorPage(messageKey: "signin.error.requestURI", status: .badRequest)
        guard requestURI.utf8.count <= 8_192, requestURI.hasPrefix(Self.requestURIPrefix),
            let sealed = Base64URL.decode(String(requestURI.dropFirst(Self.requestURIPrefix.count))),
            let opened = try? box.open(sealed, context: Self.pushedSealingContext),
            let pushed = try? WireJSON.decoder().decode(PushedAuthorizationRequest.self, from: Data(opened)),
            pushed.request.clientID == client.id
        else { return refused }
        let now = runtime.now()
        let burn = Array(SHA256.hash(data: Array("request-uri\u{0}\(requestURI)".utf8)))
        guard now < pushed.expiresAt, try await store.markSignatureUsed(burn, expiresAt: pushed.expiresAt, now: now) else {
            return refused
        }
        return .signIn(pushed.request, clientName: client.name)
    }

    /// At most ten BCP 47 tags (letters, digits and hyphens, each at most 35 characters),
    /// separated by spaces.
    package static func isLanguageTagList(_ text: String) -> Bool {
        let tags = text.split(separator: " ")
        return !tags.isEmpty && tags.count <= 10
            && tags.allSatisfy { tag in
                tag.count <= 35 && tag.first?.isLetter == true
                    && tag.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
            }
    }

    /// The request's redirect URI with an RFC 6749 §4.1.2.1 error, `state` and `iss` (RFC 9207),
    /// in the request's response mode.
    package func errorRedirect(for request: AuthorizationRequest, error: String, description: String) throws -> String {
        try respond(
            [("error", error), ("error_description", description)], state: request.state, to: request.redirectURI,
            clientID: request.clientID, jwt: request.wantsJWTResponse)
    }

    /// Seconds a JWT authorization response is valid: the browser carries it straight back.
    static let responseLifetime: TimeInterval = 60

    /// An authorization response on `redirectURI`: the parameters, `state` and `iss` in the
    /// query; or, in a JWT response mode (JARM), one `response` parameter holding them signed
    /// with this server's key, for the client alone (`aud`), so that neither the browser nor
    /// anything on the way can change or replay them elsewhere.
    func respond(
        _ parameters: [(String, String)], state: String?, to redirectURI: String, clientID: String, jwt: Bool
    ) throws -> String {
        var parameters = parameters
        if let state { parameters.append(("state", state)) }
        parameters.append(("iss", issuer))
        guard jwt else { return RedirectURIRules.appending(parameters, to: redirectURI) }
        let now = Date(timeIntervalSince1970: runtime.now().timeIntervalSince1970.rounded(.down))
        let signed = try tokens.signer.sign(AuthorizationResponseClaims(
            aud: AudienceClaim(value: [clientID]), exp: ExpirationClaim(value: now.addingTimeInterval(Self.responseLifetime)),
            parameters: parameters))
        return RedirectURIRules.appending([("response", signed)], to: redirectURI)
    }

    /// A sign-in completed: keeps its tokens sealed under a fresh single-use code and returns
    /// the redirect that hands the code to the client.
    package func grant(_ request: AuthorizationRequest, tokens issued: TokenResponse) async throws -> String {
        let claims = try await tokens.handOff(issued.accessToken, to: request.clientID)
        let userID = claims.sub.value
        // The tokens are for what was asked, or for nothing: a payment's only for that payment
        // (its transaction's digest), never a sign-in's or another payment's.
        guard claims.op == request.operation, claims.txn == request.authorizationDetail?.transaction?.digest,
            claims.authorizationDetails == request.authorizationDetail.map({ [$0] })
        else {
            try await store.revokeSession(id: claims.sid, now: runtime.now())
            await audit.record(
                .authorizationCodeRefused, outcome: "operation_mismatch", userID: userID, sessionID: claims.sid,
                details: ["clientId": request.clientID, "operation": claims.op.rawValue])
            return try errorRedirect(for: request, error: "access_denied", description: "the approval was not for what the request asked")
        }
        if let acrValues = request.acrValues, !acrValues.contains(claims.acr) {
            // Asked for more than the sign-in earned: refused, never handed over as less.
            try await store.revokeSession(id: claims.sid, now: runtime.now())
            await audit.record(
                .authorizationCodeRefused, outcome: "acr_unmet", userID: userID, sessionID: claims.sid,
                details: ["clientId": request.clientID, "acr": claims.acr])
            return try errorRedirect(
                for: request, error: "unmet_authentication_requirements", description: "the sign-in did not meet the acr_values asked for")
        }
        let code = runtime.makeSecret()
        let now = runtime.now()
        let sealed = try box.seal(Array(try WireJSON.encoder().encode(issued)), context: Self.sealingContext)
        try await store.insertAuthorizationGrant(AuthorizationGrantRecord(
            codeHash: TokenService.hash(code), clientID: request.clientID, redirectURI: request.redirectURI, userID: userID,
            sessionID: claims.sid, scopes: request.scopes, nonce: request.nonce, codeChallenge: request.codeChallenge,
            authTime: now, sealedTokens: sealed, expiresAt: now.addingTimeInterval(Self.codeLifetime)))
        await audit.record(
            .authorizationCodeIssued, userID: userID, sessionID: claims.sid, details: ["clientId": request.clientID])
        return try respond([("code", code)], state: request.state, to: request.redirectURI, clientID: request.clientID, jwt: request.wantsJWTResponse)
    }

    // MARK: Token endpoint

    /// `POST /oauth2/token`. With a DPoP proof (RFC 9449) the tokens are bound to its key:
    /// the session is bound, so every token of it, refreshed ones too, is used only with a
    /// proof of that key. A `fapi2` client's tokens are always bound.
    package func token(_ form: [String: String], presenting presented: PresentedToken) async throws -> OAuthTokenResponse {
        let client = try await authenticate(form, authorization: presented.authorization)
        let key = try await senderKey(presented)
        if key == nil, client.profile == .fapi2 {
            throw OAuthError.invalidRequest("a fapi2 client's tokens are sender-constrained: send a DPoP proof")
        }
        switch form["grant_type"] {
        case "authorization_code": return try await bind(try await exchange(form, client: client), to: key)
        case "refresh_token": return try await refresh(form, client: client, key: key)
        // CIBA poll mode.
        case CIBAService.grantType:
            return try await bind(try await CIBAService(context: context, tokens: tokens).token(form, client: client), to: key)
        case nil: throw OAuthError.invalidRequest("grant_type is required")
        default: throw OAuthError(status: 400, error: "unsupported_grant_type", description: "grant_type must be authorization_code or refresh_token")
        }
    }

    /// The thumbprint of the key a token request proves with DPoP, or nil without a proof. The
    /// proof must carry a nonce of this server (``DPoPNonce``, answered in `DPoP-Nonce`), so
    /// none is made ahead of time, and its `jti` is burned on every instance.
    private func senderKey(_ presented: PresentedToken) async throws -> String? {
        guard let proof = presented.proof else { return nil }
        let now = runtime.now()
        let verified: DPoPProof
        do {
            verified = try await DPoPProof.verify(proof, for: DPoPProof.Request(method: presented.method, url: presented.url), now: now)
        } catch {
            throw OAuthError(status: 400, error: "invalid_dpop_proof", description: error.reason)
        }
        guard DPoPNonce(box: box).isFresh(verified.nonce, now: now) else {
            throw OAuthError(
                status: 400, error: "use_dpop_nonce",
                description: "the DPoP proof must carry the nonce of the DPoP-Nonce header of this answer")
        }
        guard try await store.markSignatureUsed(verified.burn, expiresAt: verified.burnExpiresAt, now: now) else {
            throw OAuthError(status: 400, error: "invalid_dpop_proof", description: "the DPoP proof was used already (its jti)")
        }
        return verified.thumbprint
    }

    /// A nonce for the next DPoP proof, sent with every answer of the token endpoint.
    package func dpopNonce() -> String? {
        try? DPoPNonce(box: box).make(now: runtime.now())
    }

    /// `response`'s tokens bound to `key`: the grant's session bound, and the access token
    /// signed again with `cnf`; `token_type` `DPoP`. Unchanged without a key.
    private func bind(_ response: OAuthTokenResponse, to key: String?) async throws -> OAuthTokenResponse {
        guard let key else { return response }
        let claims = try await tokens.signer.verify(response.accessToken)
        guard try await store.bindSession(id: claims.sid, toKey: key) else {
            throw OAuthError.invalidGrant("the grant's tokens are bound to another key, or have ended")
        }
        let reissued = try await tokens.reissue(forSession: claims.sid)
        var bound = response
        bound.accessToken = reissued.accessToken
        bound.expiresIn = reissued.expiresIn
        bound.tokenType = "DPoP"
        return bound
    }

    private func exchange(_ form: [String: String], client: PartnerClientRecord) async throws -> OAuthTokenResponse {
        guard let code = form["code"], let redirectURI = form["redirect_uri"] else {
            throw OAuthError.invalidRequest("code and redirect_uri are required")
        }
        guard let verifier = form["code_verifier"] else { throw OAuthError.invalidRequest("code_verifier (PKCE) is required") }
        let now = runtime.now()
        let grant: AuthorizationGrantRecord
        switch try await store.redeemAuthorizationCode(codeHash: TokenService.hash(code), now: now) {
        case .unknown:
            throw OAuthError.invalidGrant("the code is not valid")
        case .alreadyRedeemed(let used):
            // A code seen twice was copied: whatever it gave is withdrawn (RFC 6749 §4.1.2).
            try await refuse(used, reason: "reused", now: now)
            throw OAuthError.invalidGrant("the code was used already; the tokens issued from it are revoked")
        case .redeemed(let redeemed):
            grant = redeemed
        }
        // The code is spent either way: a wrong try with a stolen code must not leave it usable.
        guard grant.clientID == client.id, grant.redirectURI == redirectURI else {
            try await refuse(grant, reason: "client_mismatch", now: now)
            throw OAuthError.invalidGrant("the code was issued to another client or redirect_uri")
        }
        guard now < grant.expiresAt else {
            try await refuse(grant, reason: "expired", now: now)
            throw OAuthError.invalidGrant("the code has expired")
        }
        guard PKCE.verify(verifier, against: grant.codeChallenge) else {
            try await refuse(grant, reason: "pkce_mismatch", now: now)
            throw OAuthError.invalidGrant("code_verifier does not match the code_challenge")
        }
        let issued = try WireJSON.decoder().decode(
            TokenResponse.self, from: Data(try box.open(grant.sealedTokens, context: Self.sealingContext)))
        let claims = try await tokens.handOff(issued.accessToken, to: client.id)
        await audit.record(
            .authorizationCodeRedeemed, userID: grant.userID, sessionID: grant.sessionID, details: ["clientId": client.id])
        return OAuthTokenResponse(
            accessToken: issued.accessToken,
            expiresIn: max(0, Int(claims.exp.value.timeIntervalSince(now))),
            refreshToken: Self.wantsRefreshToken(grant.scopes) ? issued.refreshToken : nil,
            idToken: grant.scopes.contains("openid") ? try await idToken(for: grant, claims: claims, now: now) : nil,
            scope: grant.scopes.joined(separator: " "), authorizationDetails: claims.authorizationDetails)
    }

    /// A refresh of a session bound to a key needs a proof of that key, checked before the
    /// refresh token is used, so a stolen refresh token alone neither works nor burns it. A
    /// bearer session refreshed with a proof is bound from then on.
    private func refresh(_ form: [String: String], client: PartnerClientRecord, key: String?) async throws -> OAuthTokenResponse {
        guard let refreshToken = form["refresh_token"] else { throw OAuthError.invalidRequest("refresh_token is required") }
        guard let sessionID = try await store.sessionID(forRefreshTokenHash: TokenService.hash(refreshToken)),
            let grant = try await store.authorizationGrant(sessionID: sessionID), grant.clientID == client.id,
            Self.wantsRefreshToken(grant.scopes), let session = try await store.session(id: sessionID)
        else { throw OAuthError.invalidGrant("the refresh token is not valid for this client") }
        if let bound = session.keyThumbprint, bound != key {
            throw OAuthError(status: 400, error: "invalid_dpop_proof", description: "the refresh token is bound to a key: prove it with DPoP")
        }
        if let key, session.keyThumbprint == nil {
            guard try await store.bindSession(id: sessionID, toKey: key) else {
                throw OAuthError.invalidGrant("the refresh token is not valid for this client")
            }
        }
        let refreshed: TokenResponse
        do {
            refreshed = try await tokens.refresh(refreshToken, issuedTo: client.id)
        } catch let problem as Problem {
            throw OAuthError.invalidGrant(problem.code == .tokenReused ? "the refresh token was used already; the session is revoked" : problem.title)
        }
        return OAuthTokenResponse(
            accessToken: refreshed.accessToken, tokenType: key == nil ? "Bearer" : "DPoP", expiresIn: refreshed.expiresIn,
            refreshToken: refreshed.refreshToken, idToken: nil, scope: grant.scopes.joined(separator: " "),
            authorizationDetails: CompactJWS.decode(Approved.self, segment: 1, of: refreshed.accessToken)?.authorizationDetails)
    }

    /// What the user approved, read from a token this server has just signed: its signature
    /// needs no second check.
    private struct Approved: Decodable {
        var authorizationDetails: [AuthorizationDetail]?

        enum CodingKeys: String, CodingKey {
            case authorizationDetails = "authorization_details"
        }
    }

    /// Ends the session a refused code opened, so no token of it stays usable.
    private func refuse(_ grant: AuthorizationGrantRecord, reason: String, now: Date) async throws {
        try await store.revokeSession(id: grant.sessionID, now: now)
        await audit.record(
            .authorizationCodeRefused, outcome: reason, userID: grant.userID, sessionID: grant.sessionID,
            details: ["clientId": grant.clientID])
    }

    private func idToken(for grant: AuthorizationGrantRecord, claims: AccessTokenClaims, now: Date) async throws -> String {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let roles = try await tokens.roles(of: grant.userID)
        return try tokens.signer.sign(IDTokenClaims(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: grant.userID), aud: AudienceClaim(value: [grant.clientID]),
            azp: grant.clientID, iat: IssuedAtClaim(value: issuedAt),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(Self.idTokenLifetime)),
            authTime: Int(grant.authTime.timeIntervalSince1970), nonce: grant.nonce, acr: claims.acr,
            amr: claims.amr.map(\.rawValue), sid: grant.sessionID, roles: roles.roles, permissions: roles.permissions,
            profile: ProfileClaims(try await store.user(id: grant.userID), scopes: grant.scopes)))
    }

    static func wantsRefreshToken(_ scopes: [String]) -> Bool {
        scopes.contains("offline") || scopes.contains("offline_access")
    }

    // MARK: Client authentication

    /// `client_secret_basic`, `client_secret_post`, `private_key_jwt` (RFC 7523), or a public
    /// client naming itself (PKCE then proves it). One method per request, and only the one
    /// the client is registered with.
    func authenticate(_ form: [String: String], authorization: String?) async throws -> PartnerClientRecord {
        var clientID = form["client_id"]
        var credential = PartnerService.Credential.secret(form["client_secret"])
        var basic = false
        if form["client_assertion_type"] != nil || form["client_assertion"] != nil {
            guard form["client_assertion_type"] == ClientAssertion.type, let assertion = form["client_assertion"] else {
                throw OAuthError.invalidClient("client_assertion_type must be \(ClientAssertion.type), with client_assertion")
            }
            // One method per request; the assertion names its client, and a client_id beside it must agree.
            guard authorization == nil, form["client_secret"] == nil, let named = ClientAssertion.issuer(of: assertion),
                clientID == nil || clientID == named
            else { throw OAuthError.invalidClient("client_assertion must be the only client credential, and name the client_id") }
            clientID = named
            credential = .assertion(assertion, audiences: [issuer, issuer + "/oauth2/token"])
        } else {
            switch BasicCredentials.presented(in: authorization) {
            case .none:
                break
            case .malformed:
                throw OAuthError.invalidClient(basic: true)
            case .credentials(let credentials):
                // One method per request: a secret in the form too, or another client named there, is refused.
                guard form["client_secret"] == nil, clientID == nil || clientID == credentials.user else {
                    throw OAuthError.invalidClient(basic: true)
                }
                basic = true
                clientID = credentials.user
                credential = .secret(credentials.password)
            }
        }
        switch try await partners.authenticate(clientID: clientID, credential) {
        case .admitted(let client):
            return client
        case .unknown:
            throw OAuthError.invalidClient(basic: basic)
        case .refused(let reason):
            guard case .assertion = credential else { throw OAuthError.invalidClient(basic: basic) }
            // A signed assertion's refusal says which rule failed: it reveals no secret, and its
            // developer needs it.
            throw OAuthError.invalidClient(reason)
        case .throttled(let seconds):
            throw OAuthError(
                status: 429, error: "slow_down", description: "too many failed client authentications; try again later",
                retryAfter: max(1, Int(seconds.rounded(.up))))
        }
    }

    // MARK: Revocation and userinfo

    /// `POST /oauth2/revoke` (RFC 7009): ends the session of a token issued to this client;
    /// anything else is ignored with the same answer.
    func revoke(_ form: [String: String], authorization: String?) async throws {
        let client = try await authenticate(form, authorization: authorization)
        guard let token = form["token"] else { throw OAuthError.invalidRequest("token is required") }
        var sessionID: String?
        if token.utf8.count <= 8_192, let claims = try? await tokens.signer.verify(token) {
            sessionID = claims.sid
        } else {
            sessionID = try await store.sessionID(forRefreshTokenHash: TokenService.hash(token))
        }
        // Any token of a session issued to this client: a sign-in's, a consent's, an operation's.
        guard let sessionID, let session = try await store.session(id: sessionID), session.clientID == client.id else {
            return
        }
        try await store.revokeSession(id: sessionID, now: runtime.now())
        await audit.record(.tokenRevoked, userID: session.userID, sessionID: sessionID, details: ["clientId": client.id])
    }

    /// `POST /oauth2/introspect` (RFC 7662): what an access token issued to this client is
    /// bound to, for the client's resource servers. A token of another client, a first-party
    /// token, a refresh token or one no longer valid answers `active: false` alike.
    func introspect(_ form: [String: String], authorization: String?) async throws -> OAuthIntrospection {
        try await introspectForClient(form, authorization: authorization).answer
    }

    /// The media type of a signed introspection answer (RFC 9701).
    static let signedIntrospectionType = "token-introspection+jwt"

    /// `POST /oauth2/introspect` with `Accept: application/token-introspection+jwt` (RFC 9701):
    /// the same answer as a JWT signed with this server's key, for this client (`aud`), so a
    /// resource server can keep it as proof of what the server said.
    func signedIntrospection(_ form: [String: String], authorization: String?) async throws -> String {
        let (client, answer) = try await introspectForClient(form, authorization: authorization)
        let now = Date(timeIntervalSince1970: runtime.now().timeIntervalSince1970.rounded(.down))
        return try tokens.signer.sign(
            SignedIntrospection(
                iss: IssuerClaim(value: issuer), aud: AudienceClaim(value: [client.id]), iat: IssuedAtClaim(value: now),
                tokenIntrospection: answer),
            type: Self.signedIntrospectionType)
    }

    private func introspectForClient(
        _ form: [String: String], authorization: String?
    ) async throws -> (client: PartnerClientRecord, answer: OAuthIntrospection) {
        let client = try await authenticate(form, authorization: authorization)
        guard let token = form["token"] else { throw OAuthError.invalidRequest("token is required") }
        let answer = try await tokens.introspect(IntrospectRequest(token: token))
        guard answer.active, answer.clientID == client.id else { return (client, OAuthIntrospection(active: false)) }
        return (client, OAuthIntrospection(answer))
    }

    /// `GET /oauth2/userinfo` with a partner's access token of scope `openid`: what its scopes
    /// let it read of the user, and nothing more.
    /// - Throws: `Problem` 401 for a token that is not valid, 403 for a first-party token or
    ///   one without `openid`.
    func userinfo(presenting presented: PresentedToken) async throws -> UserInfoResponse {
        let claims = try await tokens.authorize(presented, for: [.login], at: .partner(scope: "openid"), consume: false)
        guard let user = try await store.user(id: claims.sub.value) else { throw Problem.tokenInvalid }
        let scopes = claims.holder.scopes
        let profile = ProfileClaims(user, scopes: scopes)
        return UserInfoResponse(
            sub: user.id, email: scopes.contains("email") ? user.email : nil, name: profile.name, locale: profile.locale,
            zoneinfo: profile.zoneinfo)
    }

    func discovery() -> OpenIDConfiguration {
        OpenIDConfiguration(
            issuer: issuer, authorizationEndpoint: issuer + "/oauth2/authorize", tokenEndpoint: issuer + "/oauth2/token",
            revocationEndpoint: issuer + "/oauth2/revoke", introspectionEndpoint: issuer + "/oauth2/introspect",
            userinfoEndpoint: issuer + "/oauth2/userinfo",
            pushedAuthorizationRequestEndpoint: issuer + "/oauth2/par", endSessionEndpoint: issuer + "/oauth2/logout",
            jwksURI: issuer + "/.well-known/jwks.json",
            // CIBA poll mode.
            backchannelAuthenticationEndpoint: issuer + "/oauth2/bc-authorize")
    }
}
