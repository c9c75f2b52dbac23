import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import SCACore
import Testing

/// DPoP (RFC 9449): tokens bound to the client's key at the token endpoint, and used only with
/// a fresh proof of that key for the very request. Each refusal is a stolen token or a replayed
/// or bent proof, and changes nothing.
@Suite("DPoP sender-constrained tokens")
struct DPoPTests {
    /// A fapi2 client signed in through PAR and the pages, its tokens bound to `key`.
    struct Bound {
        var client: KeyClient
        var key: DPoPKey
        var accessToken: String
        var refreshToken: String
    }

    static func bound(_ api: APIClient, email: String, phone: String) async throws -> Bound {
        let client = try await KeyClient.make(api)
        _ = try await api.createUser(email, phone: phone)
        let (verifier, challenge) = PartnerFixture.pkce("d")
        let pushed = try await client.push(challenge: challenge, scope: "openid offline consents")
        let uri = try #require(pushed.json["request_uri"] as? String)
        let query = try await PartnerFixture.signIn(
            PageBrowser(api: api), at: client.authorizePath(requestURI: uri), email: email, phone: phone,
            redirectURI: KeyClient.redirectURI)
        let key = DPoPKey()
        let tokens = try await client.token(
            ["grant_type": "authorization_code", "code": try #require(query["code"]), "redirect_uri": KeyClient.redirectURI,
             "code_verifier": verifier],
            dpop: key)
        #expect(tokens.status == 200, "\(tokens.text)")
        #expect(tokens.json["token_type"] as? String == "DPoP")
        return Bound(
            client: client, key: key, accessToken: try #require(tokens.json["access_token"] as? String),
            refreshToken: try #require(tokens.json["refresh_token"] as? String))
    }

    /// `GET /oauth2/userinfo` with `authorization` and, when given, a proof.
    static func userinfo(_ api: APIClient, authorization: String, proof: String?) async throws -> APIResponse {
        var headers: HTTPFields = [.authorization: authorization]
        if let proof { headers[HTTPField.Name("DPoP")!] = proof }
        let response = try await api.client.execute(uri: "/oauth2/userinfo", method: .get, headers: headers, body: nil)
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    @Test("the access token carries cnf.jkt of the key; userinfo takes it only as DPoP with a fresh proof of that key, each proof once")
    func resourceRequests() async throws {
        try await TestServer().run { api in
            let bound = try await Self.bound(api, email: "dpop@example.com", phone: "+33612340411")
            let claims = try await JWTKeyCollection().add(jwks: try JSONDecoder().decode(JWKS.self, from: try await api.send(.get, "/.well-known/jwks.json").body))
                .verify(bound.accessToken, as: CnfClaims.self)
            #expect(claims.cnf?.jkt == bound.key.thumbprint, "the thumbprint as RFC 7638 computes it")
            let introspected = try await api.post("/v1/tokens/introspect", IntrospectRequest(token: bound.accessToken))
            #expect(try introspected.decode(IntrospectResponse.self).cnf == TokenConfirmation(jkt: bound.key.thumbprint))

            let url = api.services.configuration.baseURL + "/oauth2/userinfo"
            let now = api.clock.now()
            let good = try bound.key.proof(bound.key.claims("GET", url, now: now, accessToken: bound.accessToken))
            let answer = try await Self.userinfo(api, authorization: "DPoP \(bound.accessToken)", proof: good)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["sub"] is String)

            let other = DPoPKey()
            for (name, authorization, proof) in [
                ("as a bearer token (stolen, no key)", "Bearer \(bound.accessToken)", nil as String?),
                ("as DPoP without a proof", "DPoP \(bound.accessToken)", nil),
                ("the same proof again", "DPoP \(bound.accessToken)", good),
                ("a proof of another key", "DPoP \(bound.accessToken)", try other.proof(other.claims("GET", url, now: now, accessToken: bound.accessToken))),
                ("another method", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("POST", url, now: now, accessToken: bound.accessToken))),
                ("another URL", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("GET", api.services.configuration.baseURL + "/v1/consents", now: now, accessToken: bound.accessToken))),
                ("another token's hash", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("GET", url, now: now, accessToken: "another-token"))),
                ("no ath", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("GET", url, now: now))),
                ("an old proof", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("GET", url, now: now.addingTimeInterval(-120), accessToken: bound.accessToken))),
                ("another typ", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("GET", url, now: now, accessToken: bound.accessToken), typ: "JWT")),
                ("signed by one key, naming another", "DPoP \(bound.accessToken)", try bound.key.proof(bound.key.claims("GET", url, now: now, accessToken: bound.accessToken), headerKey: other)),
            ] {
                let refused = try await Self.userinfo(api, authorization: authorization, proof: proof)
                #expect(refused.status == 401, "\(name): \(refused.text)")
                #expect(refused.problem?.code == .tokenInvalid, "\(name)")
            }
            // A fresh proof still works: none of the refusals spent anything of the token's.
            let again = try bound.key.proof(bound.key.claims("GET", url, now: now, accessToken: bound.accessToken))
            #expect(try await Self.userinfo(api, authorization: "DPoP \(bound.accessToken)", proof: again).status == 200)
        }
    }

    @Test("the token endpoint: a nonce of its own, refused proofs, a fapi2 client without DPoP, and a refresh only with the same key")
    func tokenEndpoint() async throws {
        try await TestServer().run { api in
            let bound = try await Self.bound(api, email: "refresh@example.com", phone: "+33612340412")
            let url = api.services.configuration.baseURL + "/oauth2/token"
            let refresh = ["grant_type": "refresh_token", "refresh_token": bound.refreshToken]

            let noProof = try await bound.client.post("/oauth2/token", refresh)
            #expect(noProof.status == 400 && noProof.json["error"] as? String == "invalid_request", "\(noProof.text)")
            #expect(noProof.headers[HTTPField.Name("DPoP-Nonce")!] != nil, "every answer carries a nonce")
            let nonce = try #require(noProof.headers[HTTPField.Name("DPoP-Nonce")!])
            let now = api.clock.now()
            let other = DPoPKey()
            let stolen = try await bound.client.post(
                "/oauth2/token", refresh, dpop: try other.proof(other.claims("POST", url, now: now, nonce: nonce)))
            #expect(stolen.status == 400 && stolen.json["error"] as? String == "invalid_dpop_proof", "\(stolen.text)")
            let madeUpNonce = try await bound.client.post(
                "/oauth2/token", refresh, dpop: try bound.key.proof(bound.key.claims("POST", url, now: now, nonce: "bm9uY2U")))
            #expect(madeUpNonce.json["error"] as? String == "use_dpop_nonce")
            let wrongURL = try await bound.client.post(
                "/oauth2/token", refresh, dpop: try bound.key.proof(bound.key.claims("POST", url + "x", now: now, nonce: nonce)))
            #expect(wrongURL.json["error"] as? String == "invalid_dpop_proof")
            // A nonce grows stale.
            api.clock.advance(by: 400)
            let late = try await bound.client.post(
                "/oauth2/token", refresh, dpop: try bound.key.proof(bound.key.claims("POST", url, now: api.clock.now(), nonce: nonce)))
            #expect(late.json["error"] as? String == "use_dpop_nonce")
            api.clock.advance(by: -400)

            // None of that used the refresh token: with the key it still works, and stays bound.
            let proof = try bound.key.proof(bound.key.claims("POST", url, now: api.clock.now(), nonce: nonce))
            let refreshed = try await bound.client.post("/oauth2/token", refresh, dpop: proof)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect(refreshed.json["token_type"] as? String == "DPoP")
            let replayed = try await bound.client.post(
                "/oauth2/token", ["grant_type": "refresh_token", "refresh_token": try #require(refreshed.json["refresh_token"] as? String)],
                dpop: proof)
            #expect(replayed.json["error"] as? String == "invalid_dpop_proof", "a proof is used once: \(replayed.text)")
            let access = try #require(refreshed.json["access_token"] as? String)
            let asBearer = try await Self.userinfo(api, authorization: "Bearer \(access)", proof: nil)
            #expect(asBearer.status == 401, "the refreshed token is bound too")
            #expect(asBearer.headers[.wwwAuthenticate]?.contains("DPoP error=\"invalid_token\", algs=\"ES256 PS256 EdDSA\"") == true)
        }
    }

    @Test("a key-bound refresh token is not rotated: an answer lost on the way is retried with the same token")
    func refreshRetry() async throws {
        try await TestServer().run { api in
            let bound = try await Self.bound(api, email: "retry@example.com", phone: "+33612340414")
            let refresh = ["grant_type": "refresh_token", "refresh_token": bound.refreshToken]
            let first = try await bound.client.token(refresh, dpop: bound.key)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["refresh_token"] as? String == bound.refreshToken, "the same token, still valid")
            // The client never read that answer: it tries again with the token it holds.
            let retried = try await bound.client.token(refresh, dpop: bound.key)
            #expect(retried.status == 200, "\(retried.text)")
            #expect(retried.json["access_token"] is String)
            // Without the key the token is still nothing.
            let stolen = try await bound.client.token(refresh, dpop: DPoPKey())
            #expect(stolen.status == 400 && stolen.json["error"] as? String == "invalid_dpop_proof")
        }
    }

    @Test("the consent API takes a bound token only with a proof; a bearer token is never sent as DPoP")
    func consentAPI() async throws {
        try await TestServer().run { api in
            let bound = try await Self.bound(api, email: "consent-dpop@example.com", phone: "+33612340413")
            let body = try WireJSON.encoder().encode(
                CreateConsentRequest(operation: .payment, transaction: PartnerConsentTests.payment, consentRedirectUrl: "https://bank-partner.example/done"))
            func create(_ headers: HTTPFields) async throws -> APIResponse {
                var headers = headers
                headers[.contentType] = "application/json"
                let response = try await api.client.execute(uri: "/v1/consents", method: .post, headers: headers, body: ByteBuffer(bytes: body))
                return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
            }
            let url = api.services.configuration.baseURL + "/v1/consents"
            let bearer = try await create([.authorization: "Bearer \(bound.accessToken)"])
            #expect(bearer.status == 401)
            let proof = try bound.key.proof(bound.key.claims("POST", url, now: api.clock.now(), accessToken: bound.accessToken))
            let created = try await create([.authorization: "DPoP \(bound.accessToken)", HTTPField.Name("DPoP")!: proof])
            #expect(created.status != 401, "\(created.text)")

            // A bearer partner's token sent as DPoP is refused: the scheme must say what the token is.
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "bearer@example.com", phone: "+33612340414")
            let plain = try #require(tokens["access_token"] as? String)
            let asDPoP = try await Self.userinfo(
                api, authorization: "DPoP \(plain)",
                proof: try bound.key.proof(bound.key.claims("GET", api.services.configuration.baseURL + "/oauth2/userinfo", now: api.clock.now(), accessToken: plain)))
            #expect(asDPoP.status == 401)
            #expect(try await Self.userinfo(api, authorization: "Bearer \(plain)", proof: nil).status == 200)
        }
    }

    @Test("/oauth2/introspect answers a client what its own token is bound to, and nothing of another client's")
    func clientIntrospection() async throws {
        try await TestServer().run { api in
            let bound = try await Self.bound(api, email: "introspect@example.com", phone: "+33612340415")
            let own = try await bound.client.post("/oauth2/introspect", ["token": bound.accessToken])
            #expect(own.status == 200, "\(own.text)")
            #expect(own.json["active"] as? Bool == true)
            #expect(own.json["client_id"] as? String == bound.client.clientID)
            #expect(own.json["token_type"] as? String == "DPoP")
            #expect((own.json["cnf"] as? [String: Any])?["jkt"] as? String == bound.key.thumbprint)
            #expect(own.json["acr"] as? String == "psd2.sca")
            #expect(own.headers[.cacheControl] == "no-store")

            let other = try await KeyClient.make(api, kid: "other")
            let foreign = try await other.post("/oauth2/introspect", ["token": bound.accessToken])
            #expect(foreign.status == 200)
            #expect(foreign.json.keys.sorted() == ["active"] && foreign.json["active"] as? Bool == false)
            let refresh = try await bound.client.post("/oauth2/introspect", ["token": bound.refreshToken])
            #expect(refresh.json["active"] as? Bool == false)
            let anonymous = try await api.form("/oauth2/introspect", ["token": bound.accessToken])
            #expect(anonymous.status == 401 && anonymous.json["error"] as? String == "invalid_client")
            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["introspection_endpoint"] as? String == api.services.configuration.baseURL + "/oauth2/introspect")
        }
    }

    /// The `cnf` claim, read with the server's published keys.
    struct CnfClaims: JWTPayload {
        struct Confirmation: Codable { var jkt: String }
        var cnf: Confirmation?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
