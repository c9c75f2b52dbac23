import Crypto
import Foundation
import SCACore
import SCAStorage

/// Registers, lists and removes partner clients, and authenticates them at the token endpoint.
public struct PartnerService: Sendable {
    let store: any SCAStore
    let runtime: ServerRuntime
    let audit: AuditTrail

    /// The scopes a client gets when it names none.
    static let defaultScopes = ["openid", "offline", "email", "consents"]
    /// Every scope this server knows.
    static let knownScopes: Set<String> = ["openid", "offline", "offline_access", "email", "consents"]

    /// Registers a client. A confidential client's secret is in the answer, once; only its
    /// SHA-256 is stored (a 256-bit random secret needs no slow hash).
    /// - Throws: `Problem.invalidRequest` naming the rule a redirect URI, scope or name breaks.
    public func create(_ request: CreatePartnerClientRequest) async throws -> PartnerClientResponse {
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

    public func list() async throws -> [PartnerClientResponse] {
        try await store.partnerClients().map(Self.describe)
    }

    /// - Throws: `Problem.clientNotFound`.
    public func remove(clientID: String) async throws {
        guard InputRules.isWellFormedID(clientID, prefix: "cli"), try await store.removePartnerClient(id: clientID, now: runtime.now()) else {
            throw Problem.clientNotFound
        }
        await audit.record(.partnerClientRemoved, details: ["clientId": clientID])
    }

    func find(_ clientID: String) async throws -> PartnerClientRecord? {
        guard InputRules.isWellFormedID(clientID, prefix: "cli") else { return nil }
        return try await store.partnerClient(id: clientID)
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
