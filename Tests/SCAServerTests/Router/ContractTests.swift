import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import Testing

/// The HTTP contract, through the real routes: 405 with `Allow`, 415 for bodies
/// that are not JSON, the `Bearer` scheme in any case, introspection of consumed tokens, one
/// form per token, and `null` on PATCH.
@Suite("HTTP contract: methods, media types, bearer scheme, introspection, token form")
struct ContractTests {
    static let payment = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))

    @Test("a known path with another method answers 405 with Allow; an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await TestServer().run { api in
            for (method, path, allow) in [
                (HTTPRequest.Method.put, "/v1/challenges", "POST"),
                (.get, "/v1/tokens/introspect", "POST"),
                (.delete, "/admin/v1/users", "POST, GET"),
                (.post, "/v1/challenges/chl_x", "GET, DELETE"),
                (.post, "/health/live", "GET"),
                (.trace, "/v1/tokens/refresh", "POST"),
            ] {
                let response = try await api.send(method, path)
                #expect(response.status == 405, "\(method) \(path)")
                #expect(response.problem?.code == .methodNotAllowed)
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            let unknown = try await api.send(.get, "/v1/nowhere")
            #expect(unknown.status == 404)
            #expect(unknown.problem?.code == .notFound)
        }
    }

    @Test("a method of any name on a known path answers 405 with that path's Allow")
    func unknownMethodNames() async throws {
        try await TestServer().run { api in
            for (name, path, allow) in [
                ("QUERY", "/.well-known/jwks.json", "GET"),
                ("QUERY", "/v1/challenges", "POST"),
                ("PROPFIND", "/admin/v1/users", "POST, GET"),
                ("QUERY", "/v1/challenges/chl_x", "GET, DELETE"),
                ("QUERY", "/v1/challenges/chl_x/proofs", "POST"),
                ("X-ANYTHING", "/v1/devices/dev_x/status", "GET"),
            ] {
                let method = try #require(HTTPRequest.Method(name))
                let response = try await api.send(method, path)
                #expect(response.status == 405, "\(name) \(path)")
                #expect(response.problem?.code == .methodNotAllowed)
                #expect(response.headers[.allow] == allow, "\(name) \(path)")
            }
            let unknown = try await api.send(try #require(HTTPRequest.Method("QUERY")), "/v1/nowhere")
            #expect(unknown.status == 404)
            #expect(unknown.problem?.code == .notFound)
        }
    }

    @Test("a JSON route refuses a body of another media type with 415 and creates nothing")
    func unsupportedMediaType() async throws {
        try await TestServer().run { api in
            let body = Data(#"{"email": "media@example.com", "password": "correct horse battery"}"#.utf8)
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil] {
                var headers: HTTPFields = [.authorization: "Bearer \(TestServer.adminKey)"]
                if let contentType { headers[.contentType] = contentType }
                let response = try await api.client.execute(
                    uri: "/admin/v1/users", method: .post, headers: headers, body: ByteBuffer(bytes: body))
                #expect(response.status == .unsupportedMediaType, "\(contentType ?? "no content type")")
                let problem = try WireJSON.decoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.code == .unsupportedMediaType)
            }
            #expect(try await api.services.users.find("media@example.com") == nil)
            // The JSON media type in any case, with parameters, is accepted.
            for (index, contentType) in ["application/json; charset=utf-8", "Application/JSON"].enumerated() {
                let created = try await api.client.execute(
                    uri: "/admin/v1/users", method: .post,
                    headers: [.authorization: "Bearer \(TestServer.adminKey)", .contentType: contentType],
                    body: ByteBuffer(bytes: Data(#"{"email": "media\#(index)@example.com"}"#.utf8)))
                #expect(created.status == .created, "\(contentType)")
            }
        }
    }

    @Test("the Bearer scheme is matched in any case, on the admin and the user routes")
    func bearerSchemeCaseInsensitive() async throws {
        try await TestServer().run { api in
            for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
                let response = try await api.client.execute(
                    uri: "/admin/v1/users", method: .get, headers: [.authorization: "\(scheme) \(TestServer.adminKey)"])
                #expect(response.status == .ok, "\(scheme)")
            }
            let basic = try await api.client.execute(
                uri: "/admin/v1/users", method: .get, headers: [.authorization: "Basic \(TestServer.adminKey)"])
            #expect(basic.status == .unauthorized)

            let userID = try await api.createUser("scheme@example.com")
            let token = try #require(try await api.logIn("scheme@example.com", totp: try await api.enrollTOTP(userID)).accessToken)
            let devices = try await api.client.execute(uri: "/v1/devices", method: .get, headers: [.authorization: "bearer \(token)"])
            #expect(devices.status == .ok)
        }
    }

    @Test("a consumed payment token introspects inactive; consuming needs the transaction")
    func consumedTokenIsInactive() async throws {
        try await TestServer().run { api in
            let token = try await Self.paymentToken(api, email: "consumed@example.com")

            // consume: true without the transaction is refused and burns nothing.
            for request in [
                IntrospectRequest(token: token, operation: .payment, consume: true),
                IntrospectRequest(token: token, consume: true),
            ] {
                let refused = try await api.post("/v1/tokens/introspect", request)
                #expect(refused.status == 400)
                #expect(refused.problem?.code == .transactionRequired)
            }
            #expect(try await api.introspect(token, transaction: Self.payment).active)

            #expect(try await api.introspect(token, transaction: Self.payment, consume: true).active)
            // Used up: inactive to every later introspection, consuming or not.
            #expect(try await api.introspect(token, transaction: Self.payment).active == false)
            #expect(try await api.introspect(token).active == false)
            #expect(try await api.introspect(token, operation: .payment).active == false)
        }
    }

    @Test("tokens are signed with a low s; the high-s twin of a valid token is refused")
    func highSSignatureRefused() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("twin@example.com")
            let totp = try await api.enrollTOTP(userID)
            for _ in 0..<6 {
                let token = try #require(try await api.logIn("twin@example.com", totp: totp).accessToken)
                let signature = try #require(Base64URL.decode(String(token.split(separator: ".")[2])))
                #expect(signature.count == 64)
                #expect(!Self.isGreater(Array(signature[32...]), than: Self.halfOrder), "issued with a high s")

                let twin = Self.twin(of: token)
                #expect(twin != token)
                #expect(try await api.introspect(twin).active == false)
                let devices = try await api.client.execute(uri: "/v1/devices", method: .get, headers: [.authorization: "Bearer \(twin)"])
                #expect(devices.status == .unauthorized)
                #expect(try await api.introspect(token).active)
                api.clock.advance(by: 31)  // a fresh TOTP step for the next login
            }
        }
    }

    @Test("a token is a compact ES256 JWS: header alg/kid/typ, claims in seconds, verified with the published key alone")
    func tokenVerifiesWithThePublishedKey() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("jws@example.com")
            let totp = try await api.enrollTOTP(userID)
            let token = try #require(try await api.logIn("jws@example.com", totp: totp).accessToken)
            let segments = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(segments.count == 3)
            let headerBytes = try #require(Base64URL.decode(segments[0]))
            let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
            #expect(header.count == 3)
            #expect(header["alg"] as? String == "ES256")
            #expect(header["typ"] as? String == "JWT")
            let keyID = try #require(header["kid"] as? String)
            let claimBytes = try #require(Base64URL.decode(segments[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any])
            #expect(claims["sub"] as? String == userID)
            let issuedAt = try #require(claims["iat"] as? Double)
            let expiresAt = try #require(claims["exp"] as? Double)
            #expect(abs(issuedAt - api.clock.now().timeIntervalSince1970) < 2)
            #expect(expiresAt > issuedAt)
            // The signature over `header.claims`, checked with the JWKS key of that id only.
            let key = try #require(try await AuditCheckpointCommandTests.publishedKeys(api)[keyID])
            let signatureBytes = try #require(Base64URL.decode(segments[2]))
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
            #expect(key.isValidSignature(signature, for: Array("\(segments[0]).\(segments[1])".utf8)))
            #expect(!key.isValidSignature(signature, for: Array("\(segments[0]).\(segments[1])x".utf8)))
        }
    }

    @Test("null on PATCH /admin/v1/users/{id} is refused and changes nothing; an absent field is left alone")
    func nullOnPatchRefused() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("nulls@example.com", phone: "+33612345678")
            for field in ["emailCodes", "phone", "email"] {
                let response = try await api.send(
                    .patch, "/admin/v1/users/\(userID)", body: Data(#"{"\#(field)": null}"#.utf8), admin: true)
                #expect(response.status == 400, "\(field)")
                #expect(response.problem?.code == .requestInvalid)
                #expect(response.problem?.detail == "\(field) must not be null")
            }
            let user = try await api.send(.get, "/admin/v1/users/\(userID)", admin: true).decode(UserResponse.self)
            #expect(user.methods.contains(.emailOTP))
            #expect(user.phone == "+33612345678")

            let off = try await api.send(.patch, "/admin/v1/users/\(userID)", body: Data(#"{"emailCodes": false}"#.utf8), admin: true)
            #expect(off.status == 200)
            #expect(try off.decode(UserResponse.self).methods.contains(.emailOTP) == false)
            let untouched = try await api.send(.patch, "/admin/v1/users/\(userID)", body: Data(#"{"pin": "1234"}"#.utf8), admin: true)
            #expect(try untouched.decode(UserResponse.self).methods.contains(.emailOTP) == false)
        }
    }

    // MARK: Helpers

    static func paymentToken(_ api: APIClient, email: String) async throws -> String {
        let userID = try await api.createUser(email)
        let totp = try await api.enrollTOTP(userID)
        let challenge = try await api.startChallenge(.payment, email: email, transaction: payment)
        try await api.prove(challenge.challengeId, .password, "correct horse battery")
        let complete = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self)
        return try #require(complete.accessToken)
    }

    /// P-256's order n and ⌊n/2⌋, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]
    static let halfOrder: [UInt8] = [
        0x7F, 0xFF, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xDE, 0x73, 0x7D, 0x56, 0xD3, 0x8B, 0xCF, 0x42, 0x79, 0xDC, 0xE5, 0x61, 0x7E, 0x31, 0x92, 0xA8,
    ]

    static func isGreater(_ a: [UInt8], than b: [UInt8]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x > y }
        return false
    }

    /// The same token with (r, n − s): a signature that verifies just as well.
    static func twin(of token: String) -> String {
        var segments = token.split(separator: ".").map(String.init)
        let signature = Base64URL.decode(segments[2])!
        var s = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(order[index]) - Int(signature[32 + index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            s[index] = UInt8(difference)
        }
        segments[2] = Base64URL.encode(Array(signature[..<32]) + s)
        return segments.joined(separator: ".")
    }
}
