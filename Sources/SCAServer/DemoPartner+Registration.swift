import Crypto
import Foundation
import SCACore
import SCAEngine
import SCAPartners

extension SCAServices {
    /// Registers the demo partner of `serve --demo` (a public client whose redirects come back
    /// to the demo pages under `baseURL`), replacing one a previous start registered, and
    /// returns what to print.
    /// - Throws: `ConfigurationError` when the server does not run in demo mode.
    package func registerDemoPartner() async throws -> DemoPartner.Instructions {
        guard let demoPartner = partnerAccess.demoPartner else { throw ConfigurationError("the demo partner exists in demo mode only") }
        let base = engine.configuration.baseURL
        // A previous start's client has this start's name but perhaps another port.
        for client in try await partnerAccess.partners.list()
        where client.name == DemoPartner.name && client.redirectUris.allSatisfy({ $0.hasSuffix(DemoPartner.callbackPath) }) {
            try await partnerAccess.partners.remove(clientID: client.clientId)
        }
        let client = try await partnerAccess.partners.create(CreatePartnerClientRequest(
            name: DemoPartner.name, redirectUris: [base + DemoPartner.callbackPath],
            consentRedirectUris: [base + DemoPartner.consentDonePath], publicClient: true))
        await demoPartner.registered(client.clientId)
        let fapi = try await registerDemoFAPIPartner(base: base)
        await demoPartner.registered(fapi)
        return DemoPartner.Instructions(
            clientID: client.clientId, signInURL: await demoPartner.signInURL(base: base) ?? "",
            consentCommand: DemoPartner.consentCommand(base: base), fapi: fapi, fapiPushCommand: fapi.pushCommand(base: base))
    }

    /// Registers the FAPI 2.0 demo partner: a `fapi2` client that signs its requests, with
    /// the key kept in the data directory (made at the first start), replacing one a previous
    /// start registered.
    private func registerDemoFAPIPartner(base: String) async throws -> DemoPartner.FAPIClient {
        let directory = engine.configuration.dataDirectory
        let absolute = directory.hasPrefix("/") ? directory : FileManager.default.currentDirectoryPath + "/" + directory
        let keyPath = (absolute as NSString).appendingPathComponent(DemoPartner.fapiKeyFile)
        let key = try Self.demoFAPIKey(at: keyPath)
        for client in try await partnerAccess.partners.list()
        where client.name == DemoPartner.fapiName && client.redirectUris.allSatisfy({ $0.hasSuffix(DemoPartner.fapiCallbackPath) }) {
            try await partnerAccess.partners.remove(clientID: client.clientId)
        }
        // The uncompressed point: 0x04, then x and y, 32 bytes each.
        let point = Array(key.publicKey.x963Representation)
        let jwk: JSONValue = .object([
            "kty": "EC", "crv": "P-256", "kid": .string(DemoPartner.fapiKeyID), "use": "sig", "alg": "ES256",
            "x": .string(Base64URL.encode(Array(point[1...32]))), "y": .string(Base64URL.encode(Array(point[33...64]))),
        ])
        let client = try await partnerAccess.partners.create(CreatePartnerClientRequest(
            name: DemoPartner.fapiName, redirectUris: [base + DemoPartner.fapiCallbackPath], profile: .fapi2,
            jwks: .object(["keys": .array([jwk])]), authorizationDetailsTypes: AuthorizationDetail.knownTypes,
            requireSignedRequestObject: true))
        return DemoPartner.FAPIClient(clientID: client.clientId, keyPath: keyPath)
    }

    /// The demo partner's private key, read from `path`, or made and written there (readable by
    /// its owner only) when there is none: the partner's side of the demo, never the server's.
    private static func demoFAPIKey(at path: String) throws -> P256.Signing.PrivateKey {
        if let pem = try? String(contentsOfFile: path, encoding: .utf8) {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        }
        let key = P256.Signing.PrivateKey()
        guard FileManager.default.createFile(
            atPath: path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ConfigurationError("the demo partner's key could not be written to \(path)") }
        return key
    }
}
