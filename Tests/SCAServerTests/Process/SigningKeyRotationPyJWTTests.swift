import Foundation
import SCAEngine
import Testing

/// A relying party outside the project (PyJWT) verifying the server's tokens against the JWKS
/// the server serves, across a key rotation on the test clock: a token signed by the old key
/// verifies while the old key is published beside the new one, and no more once it has left.
@Suite("Signing-key rotation, seen by PyJWT")
struct SigningKeyRotationPyJWTTests {
    /// Verifies a token (argument 2) with the key of its `kid` from a JWKS file (argument 1);
    /// prints `verified`, or `refused:` and why. Time claims are the test clock's, not this
    /// process's: only the signature and the key are checked.
    static let verifier = """
        import json, sys, jwt
        jwks = json.load(open(sys.argv[1]))
        token = sys.argv[2]
        try:
            kid = jwt.get_unverified_header(token)["kid"]
            key = jwt.PyJWKSet.from_dict(jwks)[kid]
            jwt.decode(token, key.key, algorithms=["ES256"],
                       options={"verify_exp": False, "verify_iat": False, "verify_nbf": False, "verify_aud": False})
            print("verified")
        except Exception as error:
            print("refused: " + type(error).__name__)
        """

    /// What PyJWT says of `token` against the JWKS the server serves now.
    static func pyJWT(_ token: String, _ api: APIClient, in directory: URL) async throws -> String {
        let jwks = directory.appendingPathComponent("jwks-\(UUID().uuidString).json")
        try await api.send(.get, "/.well-known/jwks.json").body.write(to: jwks)
        return try await FAPIScriptTests.output(
            of: FAPIScriptTests.python, ["-c", verifier, jwks.path, token], from: directory, scratch: directory, clock: nil,
            named: "PyJWT verify")
    }

    @Test(
        "a token of the old key verifies with PyJWT against the served JWKS during the overlap, and fails after it",
        .enabled(if: FAPIScriptTests.pyJWT != nil, "PyJWT is not in .build/pyjwt (.ci/run installs it)"))
    func oldKeyVerifiesDuringOverlapOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer().run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("relying@example.com"))
            let old = try #require(try await api.logIn("relying@example.com", totp: totp).accessToken)
            #expect(try await Self.pyJWT(old, api, in: directory) == "verified")

            let next = try await api.services.signingKeys.rotate()
            // The next key is served, readable by PyJWT, before it signs; the old token still verifies.
            #expect(try await SigningKeyRotationTests.publishedKeyIDs(api).first == next.keyID)
            #expect(try await Self.pyJWT(old, api, in: directory) == "verified")

            api.clock.advance(by: SigningKeySchedule.defaultPrepublication)
            let new = try #require(try await api.logIn("relying@example.com", totp: totp).accessToken)
            #expect(try SigningKeyRotationTests.keyID(of: new) == next.keyID)
            #expect(try await Self.pyJWT(new, api, in: directory) == "verified")
            // The overlap: the old key stays served for the retention after the new one activates.
            api.clock.advance(by: api.services.signingKeys.schedule.retention - 1)
            #expect(try await Self.pyJWT(old, api, in: directory) == "verified")
            api.clock.advance(by: 1)
            #expect(try await Self.pyJWT(old, api, in: directory).hasPrefix("refused:"))
            #expect(try await Self.pyJWT(new, api, in: directory) == "verified")
        }
    }
}
