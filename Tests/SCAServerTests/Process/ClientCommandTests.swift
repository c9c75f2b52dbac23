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
}
