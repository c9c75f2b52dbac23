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

    /// What checking a client's credentials found (``authenticate(clientID:secret:)``).
    enum Authentication: Sendable {
        case admitted(PartnerClientRecord)
        /// No such client: nothing is counted (there is no client to throttle).
        case unknown
        /// The wrong secret (or a secret for a public client, or none for a confidential one).
        case refused
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
        for (field, uris) in [("redirectUris", request.redirectUris), ("consentRedirectUris", consentRedirects)] {
            for (index, uri) in uris.enumerated() {
                if let problem = RedirectURIRules.problem(uri) { throw Problem.invalidRequest("\(field)[\(index)] \(problem)") }
            }
        }
        let scopes = request.scopes ?? Self.defaultScopes
        guard !scopes.isEmpty, scopes.allSatisfy(Self.knownScopes.contains) else {
            throw Problem.invalidRequest("scopes must be among \(Self.knownScopes.sorted().joined(separator: ", "))")
        }
        let secret = request.publicClient == true ? nil : runtime.makeSecret()
        let record = PartnerClientRecord(
            id: runtime.makeID(prefix: "cli"), name: name, secretHash: secret.map(Self.hash),
            redirectURIs: request.redirectUris, consentRedirectURIs: consentRedirects, scopes: scopes,
            createdAt: runtime.now())
        try await store.createPartnerClient(record)
        await audit.record(
            .partnerClientCreated, details: ["clientId": record.id, "public": secret == nil ? "yes" : "no"])
        var response = Self.describe(record)
        response.clientSecret = secret
        return response
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
        switch try await authenticate(clientID: clientID, secret: secret) {
        case .admitted(let client): return client.id
        case .unknown, .refused: throw Problem.unauthorized
        case .throttled(let seconds): throw Problem.clientThrottled(retryAfter: seconds)
        }
    }

    /// Checks a client's credentials: a confidential client's secret, or a public client naming
    /// itself with none (PKCE then proves it, at the token endpoint). Failures are counted per
    /// client, whatever address the guesses come from, and a throttled client is refused before
    /// its secret counts, right or wrong; each refusal is audited and counted.
    func authenticate(clientID: String?, secret: String?) async throws -> Authentication {
        guard let clientID, let client = try await find(clientID) else { return .unknown }
        let authenticated = client.secretHash == nil ? secret == nil : secret.map { Self.secretMatches($0, of: client) } ?? false
        let now = runtime.now()
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
            return .refused
        }
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
        PartnerClientResponse(
            clientId: record.id, name: record.name, redirectUris: record.redirectURIs,
            consentRedirectUris: record.consentRedirectURIs, scopes: record.scopes, publicClient: record.secretHash == nil,
            createdAt: record.createdAt)
    }
}
