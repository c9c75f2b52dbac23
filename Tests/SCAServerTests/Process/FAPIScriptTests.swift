import Foundation
import SCACore
import Testing

/// The partner's script in `docs/fapi` (`fapi_client.py`, PyJWT) makes keys and assertions this
/// server accepts: the walk-through in docs/partners-fapi.md works with an off-the-shelf JOSE
/// library, not only with ours. `.ci/run` puts PyJWT in `.build/pyjwt`; without it the test
/// says it did not run.
@Suite("The FAPI partner's script (PyJWT)")
struct FAPIScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("docs/fapi/fapi_client.py")
    static let pyJWT: URL? = {
        let directory = root.appendingPathComponent(".build/pyjwt")
        return FileManager.default.fileExists(atPath: directory.appendingPathComponent("jwt").path) ? directory : nil
    }()
    static let python = URL(fileURLWithPath: "/usr/bin/python3")

    /// Runs the script with `arguments`; its standard output.
    static func run(_ arguments: [String], in directory: URL) async throws -> String {
        let output = directory.appendingPathComponent("out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = try #require(pyJWT).path
        let status = try await ChildProcess(
            python, arguments: [script.path] + arguments, environment: environment, directory: directory,
            standardOutput: .file(handle), killAfter: .seconds(60)
        ).status()
        try handle.close()
        #expect(status == 0, "fapi_client.py \(arguments.first ?? "") failed")
        return try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "keys from the script register a fapi2 client; its assertions authenticate a pushed request, once each",
        .enabled(if: FAPIScriptTests.pyJWT != nil, "PyJWT is not in .build/pyjwt (.ci/run installs it)"))
    func scriptAssertionsAreAccepted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-fapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await Self.run(["keygen", "key.pem", "jwks.json"], in: directory)
        let jwks = try WireJSON.decoder().decode(JSONValue.self, from: Data(contentsOf: directory.appendingPathComponent("jwks.json")))

        try await TestServer().run { api in
            // The script signs with the real time.
            api.clock.advance(by: Date().timeIntervalSince(api.clock.now()))
            let registered = try await api.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(name: "Script Partner", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwks: jwks),
                admin: true)
            #expect(registered.status == 201)
            let clientID = try registered.decode(PartnerClientResponse.self).clientId
            let issuer = api.services.configuration.baseURL
            let assertion = try await Self.run(["assertion", "key.pem", clientID, issuer], in: directory)
            let (_, challenge) = PartnerFixture.pkce()
            let form = [
                "response_type": "code", "client_id": clientID, "redirect_uri": KeyClient.redirectURI, "scope": "openid",
                "code_challenge": challenge, "code_challenge_method": "S256",
            ].merging(KeyClient.credentials(assertion)) { $1 }
            let pushed = try await api.form("/oauth2/par", form)
            #expect(pushed.status == 201, "\(pushed.text)")
            let replayed = try await api.form("/oauth2/par", form)
            #expect(replayed.status == 401 && replayed.json["error"] as? String == "invalid_client")
        }
    }
}
