import Crypto
import Foundation
import JWTKit
import SCACore
import Testing

/// `sca-server client create` registers a FAPI 2.0 client from a JWK Set file, and refuses what
/// the API refuses, storing nothing.
@Suite("client command")
struct ClientCommandTests {
    @Test("--profile fapi2 --jwks-file registers a key client without a secret; a file with a private key is refused")
    func fapiClient() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-clients-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["SCA_DATA_DIR": directory.appendingPathComponent("data").path]
        let key = try KeyClient.Signer.es256(ES256PrivateKey()).jwk(kid: "k1")
        let jwks = directory.appendingPathComponent("jwks.json")
        try WireJSON.encoder().encode(JSONValue.object(["keys": .array([key])])).write(to: jwks)

        let created = try await AdminCommand.run(
            ["client", "create", "--name", "Open Banking Partner", "--redirect-uri", "https://partner.example/cb", "--profile", "fapi2",
             "--jwks-file", jwks.path],
            environment: environment)
        #expect(created.status == 0, "\(created.errors)")
        #expect(created.output.contains("profile: fapi2  authentication: private_key_jwt"))
        #expect(!created.output.contains("client_secret"))

        guard case .object(var fields) = key else { return }
        fields["d"] = .string(Base64URL.encode(Array(repeating: 1, count: 32)))
        try WireJSON.encoder().encode(JSONValue.object(["keys": .array([.object(fields)])])).write(to: jwks)
        let refused = try await AdminCommand.run(
            ["client", "create", "--name", "Leaky", "--redirect-uri", "https://partner.example/cb", "--jwks-file", jwks.path],
            environment: environment)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("is a private key"), "\(refused.errors)")
        let listed = try await AdminCommand.run(["client", "list"], environment: environment)
        #expect(listed.output.contains("Open Banking Partner  fapi2  private_key_jwt") && !listed.output.contains("Leaky"))
    }

    @Test("--jwks-uri, --backchannel-logout-uri and --ciba-notification-endpoint register a client the server will call; a private address is refused")
    func notifiedClient() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-clients-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["SCA_DATA_DIR": directory.appendingPathComponent("data").path]
        let created = try await AdminCommand.run(
            ["client", "create", "--name", "Rotating Partner", "--redirect-uri", "https://partner.example/cb", "--profile", "fapi2",
             "--jwks-uri", "https://partner.example/jwks", "--backchannel-logout-uri", "https://partner.example/logout",
             "--ciba-notification-endpoint", "https://partner.example/ciba"],
            environment: environment)
        #expect(created.status == 0, "\(created.errors)")
        #expect(created.output.contains("authentication: private_key_jwt"))
        #expect(created.output.contains("jwks_uri: https://partner.example/jwks"))
        #expect(created.output.contains("backchannel_logout_uri: https://partner.example/logout"))
        #expect(created.output.contains("ciba: ping to https://partner.example/ciba"))

        let refused = try await AdminCommand.run(
            ["client", "create", "--name", "Inside", "--redirect-uri", "https://partner.example/cb",
             "--backchannel-logout-uri", "https://192.168.1.20/logout"],
            environment: environment)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("backchannelLogoutUri must not point at a private address"), "\(refused.errors)")
        let listed = try await AdminCommand.run(["client", "list"], environment: environment)
        #expect(listed.output.contains("Rotating Partner") && !listed.output.contains("Inside"))
    }
}
