import Foundation
import HTTPTypes
import SCACore
import SCATestSupport
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
    /// The `python3` on the PATH, the one `.ci/run` installed PyJWT with (its compiled parts
    /// fit that interpreter).
    static let python: URL = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: "/usr/bin/python3")
    }()

    /// Runs the script with `arguments`; its standard output. With `clock` (the server's) the
    /// script signs at that clock's time (`FAPI_CLIENT_TIME`), so no real time passes for either.
    static func run(_ arguments: [String], in directory: URL, clock: TestClock? = nil) async throws -> String {
        try await output(
            of: python, [script.path] + arguments, from: directory, scratch: directory, clock: clock,
            named: "fapi_client.py \(arguments.first ?? "")")
    }

    /// Runs `executable` from `workingDirectory` with PyJWT on the Python path, signing at
    /// `clock`'s time when given; its standard output (its errors in the failure's message).
    /// - Parameter scratch: where its output is collected.
    static func output(
        of executable: URL, _ arguments: [String], from workingDirectory: URL, scratch: URL, clock: TestClock?, named name: String
    ) async throws -> String {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let output = scratch.appendingPathComponent("out-\(UUID().uuidString)")
        let errors = scratch.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: errors)
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = try #require(pyJWT).path
        if let clock { environment["FAPI_CLIENT_TIME"] = String(Int(clock.now().timeIntervalSince1970)) }
        let status = try await ChildProcess(
            executable, arguments: arguments, environment: environment, directory: workingDirectory,
            standardOutput: .file(handle), standardError: .file(errorHandle), killAfter: .seconds(60)
        ).status()
        try handle.close()
        try errorHandle.close()
        #expect(status == 0, "\(name) failed: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        return try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "the walk of docs/partners-fapi.md with the script's keys, assertions and DPoP proofs: PAR, sign-in, tokens, userinfo",
        .enabled(if: FAPIScriptTests.pyJWT != nil, "PyJWT is not in .build/pyjwt (.ci/run installs it)"))
    func scriptWalk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-fapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await Self.run(["keygen", "key.pem", "jwks.json"], in: directory)
        _ = try await Self.run(["keygen", "dpop.pem", "dpop-jwks.json"], in: directory)
        let jwks = try WireJSON.decoder().decode(JSONValue.self, from: Data(contentsOf: directory.appendingPathComponent("jwks.json")))

        try await TestServer().run { api in
            let registered = try await api.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(name: "Script Partner", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwks: jwks),
                admin: true)
            #expect(registered.status == 201)
            let clientID = try registered.decode(PartnerClientResponse.self).clientId
            let issuer = api.services.configuration.baseURL
            func assertion() async throws -> [String: String] {
                KeyClient.credentials(try await Self.run(["assertion", "key.pem", clientID, issuer], in: directory, clock: api.clock))
            }

            // PAR, with an assertion used once.
            let (verifier, challenge) = PartnerFixture.pkce("s")
            let request = [
                "response_type": "code", "client_id": clientID, "redirect_uri": KeyClient.redirectURI, "scope": "openid",
                "code_challenge": challenge, "code_challenge_method": "S256",
            ]
            let credentials = try await assertion()
            let pushed = try await api.form("/oauth2/par", request.merging(credentials) { $1 })
            #expect(pushed.status == 201, "\(pushed.text)")
            let replayed = try await api.form("/oauth2/par", request.merging(credentials) { $1 })
            #expect(replayed.status == 401 && replayed.json["error"] as? String == "invalid_client")
            let requestURI = try #require(pushed.json["request_uri"] as? String)

            // The user signs in on the hosted pages.
            _ = try await api.createUser("script@example.com", phone: "+33612340511")
            let query = try await PartnerFixture.signIn(
                PageBrowser(api: api), at: "/oauth2/authorize?client_id=\(clientID)&request_uri=\(RedirectURIRules.formEncoded(requestURI))",
                email: "script@example.com", phone: "+33612340511", redirectURI: KeyClient.redirectURI)

            // The code for DPoP-bound tokens: the first proof learns the nonce.
            let tokenURL = issuer + "/oauth2/token"
            let exchange = [
                "grant_type": "authorization_code", "code": try #require(query["code"]), "redirect_uri": KeyClient.redirectURI,
                "code_verifier": verifier,
            ]
            func token(nonce: String?) async throws -> APIResponse {
                let proof = try await Self.run(
                    ["dpop", "dpop.pem", "POST", tokenURL] + (nonce.map { [$0] } ?? []), in: directory, clock: api.clock)
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                headers[HTTPField.Name("DPoP")!] = proof
                return try await api.form("/oauth2/token", exchange.merging(try await assertion()) { $1 }, headers: headers)
            }
            let first = try await token(nonce: nil)
            #expect(first.json["error"] as? String == "use_dpop_nonce", "\(first.text)")
            let nonce: String = try #require(first.headers[HTTPField.Name("DPoP-Nonce")!])
            let tokens = try await token(nonce: nonce)
            #expect(tokens.status == 200, "\(tokens.text)")
            #expect(tokens.json["token_type"] as? String == "DPoP")
            let accessToken = try #require(tokens.json["access_token"] as? String)

            // userinfo, with a proof that names the token.
            let proof = try await Self.run(
                ["dpop", "dpop.pem", "GET", issuer + "/oauth2/userinfo", "", accessToken], in: directory, clock: api.clock)
            let response = try await api.client.execute(
                uri: "/oauth2/userinfo", method: .get,
                headers: [.authorization: "DPoP \(accessToken)", HTTPField.Name("DPoP")!: proof], body: nil)
            #expect(response.status == .ok)
        }
    }

    @Test(
        "a payment pushed as a request object the script signs: its authorization_details reach the page",
        .enabled(if: FAPIScriptTests.pyJWT != nil, "PyJWT is not in .build/pyjwt (.ci/run installs it)"))
    func signedPaymentRequest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-fapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await Self.run(["keygen", "key.pem", "jwks.json"], in: directory)
        let jwks = try WireJSON.decoder().decode(JSONValue.self, from: Data(contentsOf: directory.appendingPathComponent("jwks.json")))
        try await TestServer().run { api in
            let registered = try await api.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(
                    name: "Script Partner", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwks: jwks,
                    authorizationDetailsTypes: ["payment_initiation"], requireSignedRequestObject: true),
                admin: true)
            let clientID = try registered.decode(PartnerClientResponse.self).clientId
            let issuer = api.services.configuration.baseURL
            let (_, challenge) = PartnerFixture.pkce("p")
            let parameters = """
                {"response_type":"code","redirect_uri":"\(KeyClient.redirectURI)","code_challenge":"\(challenge)",
                 "code_challenge_method":"S256","state":"st-script","authorization_details":\(AuthorizationDetailsTests.payment)}
                """
            let object = try await Self.run(["request", "key.pem", clientID, issuer, parameters], in: directory, clock: api.clock)
            let assertion = try await Self.run(["assertion", "key.pem", clientID, issuer], in: directory, clock: api.clock)
            let pushed = try await api.form(
                "/oauth2/par", ["client_id": clientID, "request": object].merging(KeyClient.credentials(assertion)) { $1 })
            #expect(pushed.status == 201, "\(pushed.text)")
            let page = try await PageBrowser(api: api).get(
                "/oauth2/authorize?client_id=\(clientID)&request_uri=\(RedirectURIRules.formEncoded(try #require(pushed.json["request_uri"] as? String)))")
            #expect(page.status == 200)
            #expect(page.text.contains("Acme Supplies") && page.text.contains("FR76 3000 6000 0112 3456 7890 189"))
        }
    }
}
