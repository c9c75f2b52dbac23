import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import NIOCore
import SCACore
import SCAEngine
import SCAServer
import Synchronization
import Testing

/// What the server tells a partner on its own, through the partner outbox and the outbound
/// rules: a signed logout token when one of its sessions ends (OpenID Connect Back-Channel
/// Logout), a ping when a CIBA request in ping mode has its answer; and what it fetches: the
/// keys a client publishes at its `jwksUri`.
@Suite("Partner notifications: back-channel logout, CIBA ping, published keys")
struct PartnerNotificationTests {
    /// A partner's server on loopback: records each POST by path and serves its JWK Set.
    final class PartnerServer: Sendable {
        struct Received: Sendable {
            var path: String
            var contentType: String?
            var authorization: String?
            var body: String
        }
        let received = Mutex<[Received]>([])
        let jwks = Mutex<String>(#"{"keys":[]}"#)
        let jwksFetches = Mutex<Int>(0)
        let downFetches = Mutex<Int>(0)

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            for path in ["logout", "ping"] {
                router.post(RouterPath(stringLiteral: path)) { request, _ -> HTTPResponse.Status in
                    let body = try await request.body.collect(upTo: 65_536)
                    self.received.withLock {
                        $0.append(
                            Received(
                                path: path, contentType: request.headers[.contentType],
                                authorization: request.headers[.authorization], body: String(buffer: body)))
                    }
                    return .ok
                }
            }
            router.get("jwks") { _, _ -> Response in
                self.jwksFetches.withLock { $0 += 1 }
                return Response(
                    status: .ok, headers: [.contentType: "application/jwk-set+json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: self.jwks.withLock { $0 })))
            }
            router.get("jwks-down") { _, _ -> HTTPResponse.Status in
                self.downFetches.withLock { $0 += 1 }
                return .serviceUnavailable
            }
            return router
        }

        func posts(to path: String) -> [Received] { received.withLock { $0.filter { $0.path == path } } }
    }

    /// Runs `body` with a partner server on loopback and a test server allowed to call it.
    static func withPartner(
        _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (APIClient, PartnerServer, String) async throws -> Void
    ) async throws {
        let partner = PartnerServer()
        let app = Application(router: partner.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            let server = try await TestServer {
                $0.webhookAllowPrivateAddresses = true
                configure(&$0)
            }
            try await server.run { api in try await body(api, partner, base) }
        }
    }

    static func register(_ api: APIClient, _ request: CreatePartnerClientRequest) async throws -> PartnerClientResponse {
        let response = try await api.post("/admin/v1/clients", request, admin: true)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(PartnerClientResponse.self)
    }

    static func shop(_ api: APIClient, _ request: CreatePartnerClientRequest) async throws -> PartnerFixture {
        let client = try await register(api, request)
        return PartnerFixture(api: api, clientID: client.clientId, clientSecret: client.clientSecret)
    }

    static func shopRequest(
        logout: String? = nil, mode: String? = nil, notification: String? = nil
    ) -> CreatePartnerClientRequest {
        CreatePartnerClientRequest(
            name: "Shop", redirectUris: [PartnerFixture.redirectURI], consentRedirectUris: [PartnerFixture.consentRedirect],
            backchannelLogoutUri: logout, backchannelTokenDeliveryMode: mode, backchannelClientNotificationEndpoint: notification)
    }

    /// The claims of a logout token, its signature checked against the server's published keys.
    static func logoutClaims(_ received: PartnerServer.Received, api: APIClient) async throws -> [String: JSONValue] {
        #expect(received.contentType == "application/x-www-form-urlencoded")
        let token = try #require(
            received.body.split(separator: "&").first { $0.hasPrefix("logout_token=") }.map { String($0.dropFirst(13)) })
        let header = try #require(CompactJWS.decode([String: String].self, segment: 0, of: token))
        #expect(header["typ"] == "logout+jwt" && header["alg"] == "ES256")
        let keys = JWTKeyCollection()
        try await keys.add(jwksJSON: String(decoding: try await api.send(.get, "/.well-known/jwks.json").body, as: UTF8.self))
        return try await keys.verify(token, as: KeyClient.AnyClaims.self).values
    }

    /// The status of `GET /oauth2/userinfo` with a bearer token.
    static func userinfo(_ api: APIClient, _ token: String) async throws -> Int {
        Int(try await api.client.execute(uri: "/oauth2/userinfo", method: .get, headers: [.authorization: "Bearer \(token)"], body: nil).status.code)
    }

    /// Four series of wrong passwords: the fourth block is permanent.
    static func blockPermanently(_ api: APIClient, email: String) async throws {
        for _ in 0..<4 {
            let challenge = try await api.startChallenge(email: email)
            for _ in 0..<5 { try await api.prove(challenge.challengeId, .password, "wrong password!") }
            let locked = try await api.prove(challenge.challengeId, .password, "wrong password!")
            #expect(locked.status == 423)
            if let seconds = locked.headers[.retryAfter].flatMap(Double.init) { api.clock.advance(by: seconds) }
        }
    }

    @Test("a revoked session and a blocked user's session reach the partner as signed logout tokens, once each")
    func backchannelLogout() async throws {
        try await Self.withPartner({ $0.policies[.login] = OperationPolicy(verdict: .immediate) }) { api, partner, base in
            let shop = try await Self.shop(api, Self.shopRequest(logout: base + "/logout"))
            let quiet = try await Self.shop(api, Self.shopRequest())
            let tokens = try await shop.tokens(email: "alice@example.com", phone: "+33612345678")
            let userID = try #require(try await api.services.store.user(email: "alice@example.com")?.id)
            let idToken = try #require(tokens["id_token"] as? String)
            let sid = try #require(try jwtClaims(idToken)["sid"] as? String)
            #expect(try await api.services.deliverWebhooks() == 0, "nothing while the session lives")

            // The partner ends its own session (RFC 7009 revocation): it is told like any other.
            let revoked = try await api.form(
                "/oauth2/revoke",
                ["token": try #require(tokens["refresh_token"] as? String), "client_id": shop.clientID,
                 "client_secret": try #require(shop.clientSecret)])
            #expect(revoked.status == 200)
            #expect(try await api.services.deliverWebhooks() == 1)
            let first = try #require(partner.posts(to: "logout").first)
            let claims = try await Self.logoutClaims(first, api: api)
            #expect(claims["iss"] == .string(api.services.configuration.baseURL))
            #expect(claims["aud"] == .string(shop.clientID) || claims["aud"] == .array([.string(shop.clientID)]))
            #expect(claims["sub"] == .string(userID))
            #expect(claims["sid"] == .string(sid))
            #expect(claims["jti"] == .string("lgo_\(sid)"))
            #expect(claims["nonce"] == nil, "never taken for an id_token")
            guard case .object(let events)? = claims["events"] else { Issue.record("no events"); return }
            #expect(events["http://schemas.openid.net/event/backchannel-logout"] == .object([:]))
            guard case .number(let iat)? = claims["iat"], case .number(let exp)? = claims["exp"] else {
                Issue.record("no iat or exp")
                return
            }
            #expect(exp - iat == 120)
            #expect(try await api.services.deliverWebhooks() == 0, "delivered once")
            // Signed with the tokens' key, but never a token: no route takes it.
            let logoutToken = String(first.body.dropFirst("logout_token=".count))
            #expect(try await Self.userinfo(api, logoutToken) == 401)
            #expect(try await api.client.execute(
                uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(logoutToken)"], body: nil).status == .unauthorized)

            // A fresh session, and one at a client that takes no logout tokens; then the user is
            // blocked for good: both sessions end, and only the first partner is told.
            let (verifier, challenge) = PartnerFixture.pkce()
            let again = try await shop.signIn(PageBrowser(api: api), email: "alice@example.com", phone: "+33612345678", challenge: challenge)
            let second = try await shop.exchange(code: try #require(again["code"]), verifier: verifier)
            let secondToken = try #require(second.json["access_token"] as? String)
            let secondSID = try #require(try jwtClaims(secondToken)["sid"] as? String)
            let other = try await quiet.signIn(PageBrowser(api: api), email: "alice@example.com", phone: "+33612345678", challenge: challenge)
            let otherCode = try #require(other["code"])
            let otherToken = try #require(try await quiet.exchange(code: otherCode, verifier: verifier).json["access_token"] as? String)
            #expect(try await Self.userinfo(api, secondToken) == 200)

            try await Self.blockPermanently(api, email: "alice@example.com")
            #expect(try await Self.userinfo(api, secondToken) == 401, "a blocked account keeps no session")
            #expect(try await Self.userinfo(api, otherToken) == 401)
            #expect(try await api.services.deliverWebhooks() == 1)
            let blocked = try #require(partner.posts(to: "logout").last)
            #expect(try await Self.logoutClaims(blocked, api: api)["sid"] == .string(secondSID))
            #expect(partner.posts(to: "logout").count == 2)
        }
    }

    @Test("ping mode: the request needs a notification token; the answer is announced under it, then the tokens are fetched once")
    func cibaPing() async throws {
        try await Self.withPartner { api, partner, base in
            let shop = try await Self.shop(api, Self.shopRequest(mode: "ping", notification: base + "/ping"))
            let listed = try #require(try await api.send(.get, "/admin/v1/clients", admin: true).decode([PartnerClientResponse].self).first)
            #expect(listed.backchannelTokenDeliveryMode == "ping")
            #expect(listed.backchannelClientNotificationEndpoint == base + "/ping")
            _ = try await shop.tokens(email: "alice@example.com", phone: "+33612345678")
            let user = try #require(try await api.services.store.user(email: "alice@example.com"))
            var device = TestDevice()
            try await api.activate(&device, userID: user.id)
            let phone = OperationPhone(api: api, device: device)

            // Without its token, or with one no bearer header can carry: refused, nothing asked.
            for token in [nil, "", "has space", String(repeating: "t", count: 1025)] {
                var fields = ["scope": "openid", "login_hint": "alice@example.com"]
                fields["client_notification_token"] = token
                let refused = try await CIBATests.authorize(shop, fields)
                #expect(refused.status == 400 && CIBATests.error(refused) == "invalid_request", "\(token ?? "nil"): \(refused.text)")
            }
            #expect(try await phone.pending().isEmpty)

            let started = try await CIBATests.authorize(
                shop, ["scope": "openid", "login_hint": "alice@example.com", "client_notification_token": "ntf-8f3e2a9c41d7"])
            #expect(started.status == 200)
            let id = try #require(started.json["auth_req_id"] as? String)
            #expect(try await api.services.deliverWebhooks() == 0, "nothing before the answer")

            let shown = try #require(try await phone.pending().first)
            #expect(try await phone.approve(shown).status == 200)
            #expect(try await api.services.deliverWebhooks() == 1)
            let ping = try #require(partner.posts(to: "ping").first)
            #expect(ping.authorization == "Bearer ntf-8f3e2a9c41d7")
            #expect(ping.contentType == "application/json")
            let body = try JSONSerialization.jsonObject(with: Data(ping.body.utf8)) as? [String: Any]
            #expect(body?["auth_req_id"] as? String == id)
            #expect(body?.count == 1)

            let granted = try await CIBATests.poll(shop, id)
            #expect(granted.status == 200, "\(granted.text)")
            #expect(granted.json["id_token"] is String)

            // A refusal is announced too.
            let refusedID = try #require(
                try await CIBATests.authorize(
                    shop, ["scope": "openid", "login_hint": user.id, "client_notification_token": "ntf-second-request"]
                ).json["auth_req_id"] as? String)
            let next = try #require(try await phone.pending().first)
            #expect(try await phone.reject(next.operationId, .notMe).status == 200)
            #expect(try await api.services.deliverWebhooks() == 1)
            #expect(partner.posts(to: "ping").last?.authorization == "Bearer ntf-second-request")
            api.clock.advance(by: 5)
            #expect(CIBATests.error(try await CIBATests.poll(shop, refusedID)) == "access_denied")
        }
    }

    @Test("published keys are fetched once, again for a rotated key id, and a made-up key id fetches at most every 10 seconds")
    func publishedKeys() async throws {
        try await Self.withPartner { api, partner, base in
            let first = KeyClient.Signer.es256(ES256PrivateKey())
            let second = KeyClient.Signer.es256(ES256PrivateKey())
            func publish(_ signer: KeyClient.Signer, kid: String) throws {
                let set = JSONValue.object(["keys": .array([try signer.jwk(kid: kid)])])
                partner.jwks.withLock { $0 = String(decoding: try! WireJSON.encoder().encode(set), as: UTF8.self) }
            }
            try publish(first, kid: "k1")
            let registered = try await Self.register(
                api,
                CreatePartnerClientRequest(
                    name: "Open Banking Partner", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwksUri: base + "/jwks"))
            #expect(registered.tokenEndpointAuthMethod == "private_key_jwt")
            #expect(registered.jwksUri == base + "/jwks" && registered.jwks == nil)
            #expect(partner.jwksFetches.withLock { $0 } == 0, "fetched when first needed")
            let client = KeyClient(api: api, clientID: registered.clientId, signer: first, kid: "k1")
            let fetches = { partner.jwksFetches.withLock { $0 } }

            #expect(try await client.post("/oauth2/revoke", ["token": "t"]).status == 200)
            #expect(try await client.post("/oauth2/revoke", ["token": "t"]).status == 200)
            #expect(fetches() == 1, "kept")

            // The client rotates: the new key id is fetched at its first use, the old key is gone.
            api.clock.advance(by: 10)
            try publish(second, kid: "k2")
            let rotated = try await client.assertion(signer: second, kid: "k2")
            #expect(try await client.post("/oauth2/revoke", ["token": "t"], assertion: rotated).status == 200)
            #expect(fetches() == 2)
            #expect(try await client.post("/oauth2/revoke", ["token": "t"]).status == 401)

            // Made-up key ids: refused, and no more than one fetch per 10 seconds.
            for attempt in 0..<3 {
                let madeUp = try await client.assertion(signer: second, kid: "made-up-\(attempt)")
                #expect(try await client.post("/oauth2/revoke", ["token": "t"], assertion: madeUp).status == 401)
            }
            #expect(fetches() == 2)
            api.clock.advance(by: 10)
            let late = try await client.assertion(signer: second, kid: "made-up-late")
            #expect(try await client.post("/oauth2/revoke", ["token": "t"], assertion: late).status == 401)
            #expect(fetches() == 3)

            // A URL that does not answer is not called at every request either.
            let down = try await Self.register(
                api,
                CreatePartnerClientRequest(
                    name: "Down Partner", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwksUri: base + "/jwks-down"))
            let downClient = KeyClient(api: api, clientID: down.clientId, signer: first, kid: "k1")
            for _ in 0..<3 { #expect(try await downClient.post("/oauth2/revoke", ["token": "t"]).status == 401) }
            #expect(partner.downFetches.withLock { $0 } == 1)
            api.clock.advance(by: 10)
            #expect(try await downClient.post("/oauth2/revoke", ["token": "t"]).status == 401)
            #expect(partner.downFetches.withLock { $0 } == 2)

            // A kept copy ages out.
            api.clock.advance(by: 300)
            #expect(try await client.post("/oauth2/revoke", ["token": "t"], assertion: try await client.assertion(signer: second, kid: "k2")).status == 200)
            #expect(fetches() == 4)
        }
    }

    @Test("registration: addresses follow the webhook rules, keys are given or published, ping mode needs its endpoint")
    func registrationRules() async throws {
        try await TestServer().run { api in
            let key = try KeyClient.Signer.es256(ES256PrivateKey()).jwk(kid: "k1")
            let refusals: [(CreatePartnerClientRequest, String)] = [
                (Self.shopRequest(logout: "https://10.0.0.7/logout"), "webhook.address_refused"),
                (Self.shopRequest(logout: "ftp://shop.example/logout"), "request.invalid"),
                (Self.shopRequest(mode: "ping"), "request.invalid"),
                (Self.shopRequest(notification: "https://shop.example/ping"), "request.invalid"),
                (Self.shopRequest(mode: "push", notification: "https://shop.example/ping"), "request.invalid"),
                (Self.shopRequest(mode: "ping", notification: "https://169.254.169.254/ping"), "webhook.address_refused"),
                (
                    CreatePartnerClientRequest(
                        name: "App", redirectUris: [PartnerFixture.redirectURI], publicClient: true,
                        backchannelTokenDeliveryMode: "ping", backchannelClientNotificationEndpoint: "https://shop.example/ping"),
                    "request.invalid"
                ),
                (
                    CreatePartnerClientRequest(
                        name: "Keys", redirectUris: [KeyClient.redirectURI], profile: .fapi2,
                        jwks: .object(["keys": .array([key])]), jwksUri: "https://keys.example/jwks"),
                    "request.invalid"
                ),
                (
                    CreatePartnerClientRequest(
                        name: "Keys", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwksUri: "http://127.0.0.1:9/jwks"),
                    "webhook.address_refused"
                ),
                (
                    CreatePartnerClientRequest(
                        name: "Keys", redirectUris: [KeyClient.redirectURI], tokenEndpointAuthMethod: "client_secret_basic",
                        jwksUri: "https://keys.example/jwks"),
                    "request.invalid"
                ),
            ]
            for (request, code) in refusals {
                let response = try await api.post("/admin/v1/clients", request, admin: true)
                #expect(response.status == 400, "\(request)")
                #expect(response.problem?.code.rawValue == code, "\(response.text)")
            }
            #expect(try await api.send(.get, "/admin/v1/clients", admin: true).decode([PartnerClientResponse].self).isEmpty)

            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["backchannel_logout_supported"] as? Bool == true)
            #expect(discovery["backchannel_logout_session_supported"] as? Bool == true)
            #expect(discovery["backchannel_token_delivery_modes_supported"] as? [String] == ["poll", "ping"])
        }
    }
}
