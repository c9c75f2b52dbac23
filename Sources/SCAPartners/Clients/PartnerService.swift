import Crypto
import Foundation
import SCACore
import SCAEngine
import SCAStorage

/// Registers, lists and removes partner clients, and authenticates them wherever they present
/// their credentials (the token, revocation and CIBA endpoints, `POST /v1/operations`).
package struct PartnerService: EngineService, Sendable {
    package let context: EngineContext
    let metrics: ServerMetrics
    /// Checks the addresses a client registers for the server to call.
    let webhooks: WebhookService
    /// The keys of clients that publish them at a URL.
    let published: PublishedClientKeys

    /// What checking a client's credentials found (``authenticate(clientID:_:)``).
    enum Authentication: Sendable {
        case admitted(PartnerClientRecord)
        /// No such client: nothing is counted (there is no client to throttle).
        case unknown
        /// The wrong secret or assertion, or a method the client is not registered with;
        /// `reason` says which rule (for the client's developer, never naming the secret).
        case refused(reason: String)
        /// Too many failures of this client lately: refused before its secret counts.
        case throttled(seconds: TimeInterval)
    }

    /// The scopes a client gets when it names none.
    static let defaultScopes = ["openid", "offline", "email", "consents"]
    /// Every scope this server knows.
    static let knownScopes: Set<String> = ["openid", "offline", "offline_access", "email", "profile", "consents"]

    /// Registers a client. A confidential client's secret is in the answer, once; only its
    /// SHA-256 is stored (a 256-bit random secret needs no slow hash).
    /// - Throws: `Problem.invalidRequest` naming the rule a redirect URI, scope or name breaks.
    package func create(_ request: CreatePartnerClientRequest) async throws -> PartnerClientResponse {
        // Users read the name on the pages: the display-text rule (no control, format or
        // bidirectional characters), after trimming.
        let name: String
        switch DisplayText.normalized(request.name.trimmingCharacters(in: .whitespaces), field: "name", maxLength: 100) {
        case .success(let normalized): name = normalized
        case .failure(let violation): throw Problem.invalidRequest(violation.reason)
        }
        guard !request.redirectUris.isEmpty, request.redirectUris.count <= 20 else {
            throw Problem.invalidRequest("redirectUris must list 1 to 20 URIs")
        }
        let consentRedirects = request.consentRedirectUris ?? []
        guard consentRedirects.count <= 20 else { throw Problem.invalidRequest("consentRedirectUris must list at most 20 URIs") }
        let logoutRedirects = request.postLogoutRedirectUris ?? []
        guard logoutRedirects.count <= 20 else { throw Problem.invalidRequest("postLogoutRedirectUris must list at most 20 URIs") }
        for (field, uris) in [
            ("redirectUris", request.redirectUris), ("consentRedirectUris", consentRedirects), ("postLogoutRedirectUris", logoutRedirects),
        ] {
            for (index, uri) in uris.enumerated() {
                if let problem = RedirectURIRules.problem(uri) { throw Problem.invalidRequest("\(field)[\(index)] \(problem)") }
            }
        }
        let scopes = request.scopes ?? Self.defaultScopes
        guard !scopes.isEmpty, scopes.allSatisfy(Self.knownScopes.contains) else {
            throw Problem.invalidRequest("scopes must be among \(Self.knownScopes.sorted().joined(separator: ", "))")
        }
        let method = try Self.authenticationMethod(of: request)
        var jwks: String?
        var jwksURI: String?
        if method == .privateKeyJWT {
            switch (request.jwks, request.jwksUri) {
            case (let given?, nil):
                let text = String(decoding: try WireJSON.encoder().encode(given), as: UTF8.self)
                do {
                    _ = try ClientKeys(json: text)
                } catch {
                    throw Problem.invalidRequest(error.reason)
                }
                jwks = text
            case (nil, let address?):
                try webhooks.checkAddress(address, field: "jwksUri")
                jwksURI = address
            case (nil, nil):
                throw Problem.invalidRequest("private_key_jwt needs jwks, the client's public keys, or jwksUri, where it publishes them")
            case (.some, .some):
                throw Problem.invalidRequest("jwks and jwksUri exclude each other: give the keys or where they are published")
            }
        } else if request.jwks != nil || request.jwksUri != nil {
            throw Problem.invalidRequest("jwks and jwksUri are for private_key_jwt clients only")
        }
        if let address = request.backchannelLogoutUri { try webhooks.checkAddress(address, field: "backchannelLogoutUri") }
        let notificationEndpoint = try cibaNotificationEndpoint(of: request, method: method)
        let detailTypes = request.authorizationDetailsTypes ?? []
        guard Set(detailTypes).count == detailTypes.count, detailTypes.allSatisfy(AuthorizationDetail.knownTypes.contains) else {
            throw Problem.invalidRequest(
                "authorizationDetailsTypes must be among \(AuthorizationDetail.knownTypes.joined(separator: ", ")), each once")
        }
        // A signed request object is signed with the client's registered keys.
        guard request.requireSignedRequestObject != true || method == .privateKeyJWT else {
            throw Problem.invalidRequest("requireSignedRequestObject needs jwks: the request objects are signed with the client's keys")
        }
        let secret = method == .clientSecret ? runtime.makeSecret() : nil
        let record = PartnerClientRecord(
            id: runtime.makeID(prefix: "cli"), name: name, secretHash: secret.map(Self.hash),
            redirectURIs: request.redirectUris, consentRedirectURIs: consentRedirects, scopes: scopes,
            createdAt: runtime.now(), profile: request.profile ?? .standard, jwks: jwks, authorizationDetailsTypes: detailTypes,
            requireSignedRequestObject: request.requireSignedRequestObject ?? false, postLogoutRedirectURIs: logoutRedirects,
            jwksURI: jwksURI, backchannelLogoutURI: request.backchannelLogoutUri, cibaNotificationEndpoint: notificationEndpoint)
        try await store.createPartnerClient(record)
        await audit.record(
            .partnerClientCreated,
            details: ["clientId": record.id, "profile": record.profile.rawValue, "authentication": method.rawValue])
        var response = Self.describe(record)
        response.clientSecret = secret
        return response
    }

    /// The CIBA notification endpoint of a client registered for ping mode; nil for poll mode.
    /// - Throws: `Problem.invalidRequest` for another mode, an endpoint without ping mode or
    ///   ping mode without one, or a public client (CIBA needs a confidential one).
    private func cibaNotificationEndpoint(of request: CreatePartnerClientRequest, method: AuthenticationMethod) throws -> String? {
        switch request.backchannelTokenDeliveryMode {
        case nil, "poll":
            guard request.backchannelClientNotificationEndpoint == nil else {
                throw Problem.invalidRequest("backchannelClientNotificationEndpoint is for backchannelTokenDeliveryMode ping")
            }
            return nil
        case "ping":
            guard let endpoint = request.backchannelClientNotificationEndpoint else {
                throw Problem.invalidRequest("ping mode needs backchannelClientNotificationEndpoint")
            }
            guard method != .none else { throw Problem.invalidRequest("ping mode is for CIBA, which needs a confidential client") }
            try webhooks.checkAddress(endpoint, field: "backchannelClientNotificationEndpoint")
            return endpoint
        default:
            throw Problem.invalidRequest("backchannelTokenDeliveryMode must be poll or ping")
        }
    }

    /// How a client proves itself at the token endpoint (RFC 7591 `token_endpoint_auth_method`):
    /// one method per client, so that a client with keys can never be taken for a public one.
    enum AuthenticationMethod: String, Sendable {
        case clientSecret = "client_secret_basic"
        case privateKeyJWT = "private_key_jwt"
        case none

        init(of client: PartnerClientRecord) {
            self = client.jwks != nil || client.jwksURI != nil ? .privateKeyJWT : client.secretHash != nil ? .clientSecret : .none
        }
    }

    /// The method a registration asks for, from `tokenEndpointAuthMethod`, `publicClient`,
    /// `jwks` and `profile`.
    /// - Throws: `Problem.invalidRequest` when they contradict each other, or when a `fapi2`
    ///   client would authenticate otherwise than with a signed assertion.
    static func authenticationMethod(of request: CreatePartnerClientRequest) throws -> AuthenticationMethod {
        let fapi = request.profile == .fapi2
        let method: AuthenticationMethod
        switch request.tokenEndpointAuthMethod {
        case nil:
            method = fapi || request.jwks != nil || request.jwksUri != nil ? .privateKeyJWT : request.publicClient == true ? .none : .clientSecret
        case "client_secret_basic", "client_secret_post":
            method = .clientSecret
        case "private_key_jwt":
            method = .privateKeyJWT
        case "none":
            method = .none
        default:
            throw Problem.invalidRequest("tokenEndpointAuthMethod must be client_secret_basic, client_secret_post, private_key_jwt or none")
        }
        guard (request.publicClient == true) == (method == .none) || request.publicClient == nil else {
            throw Problem.invalidRequest("publicClient contradicts tokenEndpointAuthMethod")
        }
        guard !fapi || method == .privateKeyJWT else {
            throw Problem.invalidRequest("a fapi2 client authenticates with private_key_jwt only: no shared secret, no public client")
        }
        return method
    }

    package func list() async throws -> [PartnerClientResponse] {
        try await store.partnerClients().map(Self.describe)
    }

    /// - Throws: `Problem.clientNotFound`.
    package func remove(clientID: String) async throws {
        guard InputRules.isWellFormedID(clientID, prefix: "cli"), try await store.removePartnerClient(id: clientID, now: runtime.now()) else {
            throw Problem.clientNotFound
        }
        await audit.record(.partnerClientRemoved, details: ["clientId": clientID])
    }

    func find(_ clientID: String) async throws -> PartnerClientRecord? {
        guard InputRules.isWellFormedID(clientID, prefix: "cli") else { return nil }
        return try await store.partnerClient(id: clientID)
    }

    /// The id of the client whose id and secret these are, for an API that answers problems
    /// (`POST /v1/operations`).
    /// - Throws: `Problem` 401 for an unknown client or a wrong secret, 429 while throttled.
    package func admittedClientID(_ clientID: String, secret: String) async throws -> String {
        switch try await authenticate(clientID: clientID, .secret(secret)) {
        case .admitted(let client): return client.id
        case .unknown, .refused: throw Problem.unauthorized
        case .throttled(let seconds): throw Problem.clientThrottled(retryAfter: seconds)
        }
    }

    /// What a client presented to prove itself.
    enum Credential: Sendable {
        /// A shared secret, or none (a public client names itself).
        case secret(String?)
        /// A signed `private_key_jwt` assertion; `audiences` are the `aud` values accepted.
        case assertion(String, audiences: [String])
    }

    /// Checks a client's credentials: a confidential client's secret, a key client's signed
    /// assertion (its `jti` burned once, on every instance), or a public client naming itself
    /// with none (PKCE then proves it, at the token endpoint). A client proves itself only by
    /// the method it was registered with. Failures are counted per client, whatever address the
    /// guesses come from, and a throttled client is refused before its credential counts, right
    /// or wrong; each refusal is audited and counted.
    func authenticate(clientID: String?, _ credential: Credential) async throws -> Authentication {
        guard let clientID, let client = try await find(clientID) else { return .unknown }
        let now = runtime.now()
        var refusal: String?
        switch (AuthenticationMethod(of: client), credential) {
        case (.clientSecret, .secret(let secret?)) where Self.secretMatches(secret, of: client):
            break
        case (.none, .secret(nil)):
            break
        case (.privateKeyJWT, .assertion(let assertion, let audiences)):
            do {
                let keys = try await keys(of: client, checking: assertion)
                let verified = try await ClientAssertion.verify(
                    assertion, clientID: client.id, profile: client.profile, keys: keys, audiences: audiences, now: now)
                if try await !store.markSignatureUsed(
                    ClientAssertion.burn(clientID: client.id, jti: verified.jti), expiresAt: verified.expiresAt, now: now)
                {
                    refusal = "client_assertion was used already (its jti)"
                }
            } catch let error as BrokenRule {
                refusal = error.reason
            }
        default:
            refusal = "not the authentication method this client is registered with"
        }
        let authenticated = refusal == nil
        let attempt = try await store.updateUnknownAddressLockout(key: ClientAuthentication.key(for: client.id)) { state in
            if let wait = state.clientThrottle(now: now) { return Attempt.throttled(seconds: wait) }
            if authenticated {
                state.recordClientSuccess()
                return .admitted
            }
            return .failed(throttledNow: state.recordClientFailure(now: now))
        }
        switch attempt {
        case .admitted:
            return .admitted(client)
        case .throttled(let seconds):
            metrics.recordClientAuthenticationFailure(outcome: "throttled")
            await audit.record(.clientAuthenticationFailed, outcome: "throttled", details: ["clientId": client.id])
            return .throttled(seconds: seconds)
        case .failed(let throttledNow):
            metrics.recordClientAuthenticationFailure(outcome: "failed")
            await audit.record(
                .clientAuthenticationFailed, outcome: throttledNow ? "throttled_now" : "rejected", details: ["clientId": client.id])
            return .refused(reason: refusal ?? "")
        }
    }

    /// The keys a JWT the client signed (an assertion, a request object) is checked with: the
    /// set it registered, or the one it publishes at its `jwksUri`.
    /// - Throws: ``BrokenRule`` when it has none, or its published keys cannot be had.
    func keys(of client: PartnerClientRecord, checking token: String) async throws(BrokenRule) -> ClientKeys {
        if let jwks = client.jwks { return try ClientKeys(json: jwks) }
        return try await published.keys(of: client, naming: ClientKeys.keyID(of: token), now: runtime.now())
    }

    private enum Attempt: Sendable {
        case admitted
        case throttled(seconds: TimeInterval)
        case failed(throttledNow: Bool)
    }

    /// Whether `secret` is the client's, compared in constant time. A public client has none
    /// and so never passes.
    static func secretMatches(_ secret: String, of client: PartnerClientRecord) -> Bool {
        guard let stored = client.secretHash else { return false }
        return ConstantTime.equals(hash(secret), stored)
    }

    static func hash(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret.utf8)))
    }

    static func describe(_ record: PartnerClientRecord) -> PartnerClientResponse {
        let method = AuthenticationMethod(of: record)
        return PartnerClientResponse(
            clientId: record.id, name: record.name, redirectUris: record.redirectURIs,
            consentRedirectUris: record.consentRedirectURIs, scopes: record.scopes, publicClient: method == .none,
            createdAt: record.createdAt, profile: record.profile, tokenEndpointAuthMethod: method.rawValue,
            requirePushedAuthorizationRequests: record.profile == .fapi2,
            jwks: record.jwks.flatMap { try? WireJSON.decoder().decode(JSONValue.self, from: Data($0.utf8)) },
            authorizationDetailsTypes: record.authorizationDetailsTypes,
            requireSignedRequestObject: record.requireSignedRequestObject, postLogoutRedirectUris: record.postLogoutRedirectURIs,
            jwksUri: record.jwksURI, backchannelLogoutUri: record.backchannelLogoutURI,
            backchannelTokenDeliveryMode: record.cibaNotificationEndpoint == nil ? "poll" : "ping",
            backchannelClientNotificationEndpoint: record.cibaNotificationEndpoint)
    }
}
