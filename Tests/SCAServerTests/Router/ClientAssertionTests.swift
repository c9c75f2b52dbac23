import Crypto
import Foundation
import HTTPTypes
import JWTKit
import SCACore
import Testing

/// `private_key_jwt` (RFC 7523): a partner proves itself with an assertion signed by a key it
/// registered, on every endpoint that authenticates clients. Each refusal is a forged or
/// replayed assertion an attacker could send; each is refused and burns nothing.
@Suite("Client authentication with signed assertions (private_key_jwt)")
struct ClientAssertionTests {
    /// A code exchange with no valid code, refused before its code is looked at when the client
    /// is not authenticated.
    static let exchange = [
        "grant_type": "authorization_code", "code": "no-such-code", "redirect_uri": KeyClient.redirectURI,
        "code_verifier": String(repeating: "v", count: 43),
    ]

    /// A pushed authorization request: `201` once the client is authenticated, `401
    /// invalid_client` when it is not.
    static func authenticate(_ client: KeyClient, assertion: String? = nil, extra: [String: String] = [:]) async throws -> APIResponse {
        try await client.push(challenge: PartnerFixture.pkce().challenge, extra: extra, assertion: assertion)
    }

    static func error(_ response: APIResponse) -> String? { response.json["error"] as? String }

    @Test("registration: a fapi2 client gets no secret, keeps its public keys, and may not use a secret; private keys are refused")
    func registration() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api)
            let listed = try #require(try await api.send(.get, "/admin/v1/clients", admin: true).decode([PartnerClientResponse].self).first)
            #expect(listed.profile == .fapi2 && listed.tokenEndpointAuthMethod == "private_key_jwt")
            #expect(listed.requirePushedAuthorizationRequests && !listed.publicClient)
            #expect(listed.clientId == client.clientID)

            let key = try KeyClient.Signer.es256(ES256PrivateKey()).jwk(kid: "k")
            func register(_ request: CreatePartnerClientRequest) async throws -> APIResponse {
                try await api.post("/admin/v1/clients", request, admin: true)
            }
            let base = CreatePartnerClientRequest(name: "P", redirectUris: [KeyClient.redirectURI])
            var secretFAPI = base
            secretFAPI.profile = .fapi2
            secretFAPI.tokenEndpointAuthMethod = "client_secret_basic"
            var publicFAPI = base
            publicFAPI.profile = .fapi2
            publicFAPI.publicClient = true
            var keyless = base
            keyless.profile = .fapi2
            var privateKey = base
            guard case .object(var fields) = key else { return }
            fields["d"] = .string(Base64URL.encode(Array(repeating: 7, count: 32)))
            privateKey.jwks = .object(["keys": .array([.object(fields)])])
            var keysForSecret = base
            keysForSecret.tokenEndpointAuthMethod = "client_secret_basic"
            keysForSecret.jwks = .object(["keys": .array([key])])
            var symmetric = base
            symmetric.jwks = .object(["keys": .array([.object(["kty": .string("oct"), "k": .string("c2VjcmV0")])])])
            var twoWithoutKid = base
            let other = try KeyClient.Signer.eddsa(EdDSA.PrivateKey()).jwk(kid: "k2")
            guard case .object(var unnamed) = other else { return }
            unnamed["kid"] = nil
            twoWithoutKid.jwks = .object(["keys": .array([key, .object(unnamed)])])
            for (name, request, words) in [
                ("fapi2 with a secret", secretFAPI, "private_key_jwt only"), ("fapi2 public", publicFAPI, "contradicts"),
                ("fapi2 without keys", keyless, "needs jwks"), ("a private key", privateKey, "is a private key"),
                ("keys with a secret", keysForSecret, "private_key_jwt clients only"), ("a symmetric key", symmetric, "JWK Set"),
                ("two keys, one unnamed", twoWithoutKid, "distinct kid"),
            ] {
                let refused = try await register(request)
                #expect(refused.status == 400, "\(name)")
                #expect(refused.problem?.detail?.contains(words) == true, "\(name): \(refused.problem?.detail ?? "")")
            }
            #expect(try await api.services.partnerAccess.partners.list().count == 1, "the refused registrations stored nothing")
        }
    }

    @Test("ES256, PS256 and EdDSA assertions authenticate a fapi2 client; RS256 only a standard one")
    func algorithms() async throws {
        try await TestServer().run { api in
            let rsa = try JWTKit.Insecure.RSA.PrivateKey(pem: KeyClient.rsaKeyPEM)
            for signer in [KeyClient.Signer.es256(try ES256PrivateKey()), .eddsa(try EdDSA.PrivateKey()), .rsa(rsa, pss: true)] {
                let client = try await KeyClient.make(api, signer: signer)
                let answer = try await Self.authenticate(client)
                #expect(answer.status == 201, "\(signer.algorithm): \(answer.text)")
            }
            let fapi = try await KeyClient.make(api, signer: .rsa(rsa, pss: false))
            let refused = try await Self.authenticate(fapi)
            #expect(refused.status == 401 && Self.error(refused) == "invalid_client")
            #expect(refused.text.contains("RS256"))
            let standard = try await KeyClient.make(api, profile: .standard, signer: .rsa(rsa, pss: false))
            let accepted = try await Self.authenticate(standard)
            #expect(accepted.status == 201)
        }
    }

    @Test("forged and replayed assertions are refused as invalid_client, and a refusal burns no jti")
    func forgeries() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api)
            let issuer = api.services.configuration.baseURL
            func refused(_ assertion: String, _ reason: String, extra: [String: String] = [:]) async throws {
                let answer = try await Self.authenticate(client, assertion: assertion, extra: extra)
                #expect(answer.status == 401, "\(reason): \(answer.text)")
                #expect(Self.error(answer) == "invalid_client", "\(reason)")
            }
            var claims = client.claims()
            claims.aud = issuer + "/oauth2/token"
            try await refused(try await client.assertion(claims), "a fapi2 client's aud is the issuer alone")
            claims = client.claims(audience: "https://other-bank.example")
            try await refused(try await client.assertion(claims), "another server's aud")
            claims = client.claims()
            claims.exp = Int(api.clock.now().timeIntervalSince1970) - 1
            try await refused(try await client.assertion(claims), "expired")
            try await refused(try await client.assertion(client.claims(lifetime: 600)), "exp too far ahead")
            claims = client.claims()
            claims.sub = "cli_someoneElse"
            try await refused(try await client.assertion(claims), "sub is not the client")
            try await refused(try await client.assertion(signer: .es256(try ES256PrivateKey())), "another key under the registered kid")
            try await refused(try await client.assertion(kid: "unknown-kid"), "an unknown kid")

            // alg none: no signature at all.
            let payload = Base64URL.encode(try JSONEncoder().encode(client.claims()))
            try await refused(Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + payload + ".", "alg none")
            // HS256 keyed with the public key: a classic confusion, when a verifier takes the
            // header's word for the algorithm.
            let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"partner-key-1","typ":"JWT"}"#.utf8))
            let publicJWK = try WireJSON.encoder().encode(try client.signer.jwk(kid: client.kid))
            let mac = HMAC<SHA256>.authenticationCode(for: Array("\(header).\(payload)".utf8), using: SymmetricKey(data: publicJWK))
            try await refused("\(header).\(payload).\(Base64URL.encode(Array(mac)))", "HS256 with the public key as secret")
            // One method per request, and the client named beside the assertion must be its issuer.
            try await refused(try await client.assertion(), "a client_id that is not the issuer", extra: ["client_id": "cli_other"])
            try await refused(try await client.assertion(), "a secret beside it", extra: ["client_secret": "x"])

            // A valid assertion is used once: the second time it is a replay.
            let good = try await client.assertion()
            let first = try await Self.authenticate(client, assertion: good)
            #expect(first.status == 201, "none of the refusals above burned anything: \(first.text)")
            try await refused(good, "a replayed jti")
            #expect(try await Self.authenticate(client).status == 201, "a fresh jti passes again")
        }
    }

    @Test("a key client is never taken for a public one: no credential, a secret, or Basic are refused")
    func noOtherMethod() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api, profile: .standard)
            let bare = try await api.form("/oauth2/token", Self.exchange.merging(["client_id": client.clientID]) { $1 })
            #expect(bare.status == 401 && Self.error(bare) == "invalid_client")
            let withSecret = try await api.form("/oauth2/token", Self.exchange.merging(["client_id": client.clientID, "client_secret": ""]) { $1 })
            #expect(withSecret.status == 401)
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            headers[.authorization] = "Basic " + Data("\(client.clientID):".utf8).base64EncodedString()
            let basic = try await api.form("/oauth2/token", Self.exchange, headers: headers)
            #expect(basic.status == 401)
            // Revocation and CIBA take the assertion too.
            let revoked = try await client.post("/oauth2/revoke", ["token": "whatever"])
            #expect(revoked.status == 200)
            let revokeBare = try await api.form("/oauth2/revoke", ["token": "whatever", "client_id": client.clientID])
            #expect(revokeBare.status == 401)
            let ciba = try await client.post("/oauth2/bc-authorize", ["scope": "openid", "login_hint": "nobody@example.com"])
            // Past client authentication and the confidential-client rule, to the user lookup.
            #expect(ciba.status == 400 && ciba.json["error"] as? String == "unknown_user_id", "\(ciba.text)")
        }
    }
}
