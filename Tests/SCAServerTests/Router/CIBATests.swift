import Foundation
import SCACore
import Testing

/// OpenID CIBA poll mode over decoupled operations: every answer of
/// `POST /oauth2/bc-authorize` and of the CIBA grant at `POST /oauth2/token`, through the routes.
@Suite("CIBA poll mode")
struct CIBATests {
    /// A partner, a user who signed in to it, and the user's phone.
    static func setUp(_ api: APIClient) async throws -> (shop: PartnerFixture, phone: OperationPhone, userID: String) {
        let shop = try await PartnerFixture.make(api)
        _ = try await shop.tokens(email: "alice@example.com", phone: "+33612345678")
        let user = try #require(try await api.services.store.user(email: "alice@example.com"))
        var device = TestDevice()
        try await api.activate(&device, userID: user.id)
        return (shop, OperationPhone(api: api, device: device), user.id)
    }

    static func authorize(_ shop: PartnerFixture, _ fields: [String: String], secret: String? = nil) async throws -> APIResponse {
        var fields = fields
        fields["client_id"] = shop.clientID
        fields["client_secret"] = secret ?? shop.clientSecret
        return try await shop.api.form("/oauth2/bc-authorize", fields)
    }

    static func poll(_ shop: PartnerFixture, _ id: String) async throws -> APIResponse {
        try await shop.token(["grant_type": "urn:openid:params:grant-type:ciba", "auth_req_id": id])
    }

    static func error(_ response: APIResponse) -> String? { response.json["error"] as? String }

    @Test("pending, slow_down, approved with tokens once; then access_denied and expired_token")
    func pollSequence() async throws {
        try await TestServer().run { api in
            let (shop, phone, userID) = try await Self.setUp(api)
            let started = try await Self.authorize(
                shop, ["scope": "openid", "login_hint": "alice@example.com", "binding_message": "Sign in to Shop"])
            #expect(started.status == 200)
            #expect(started.headers[.cacheControl] == "no-store")
            let id = try #require(started.json["auth_req_id"] as? String)
            #expect(started.json["expires_in"] as? Int == 300)
            #expect(started.json["interval"] as? Int == 5)

            let first = try await Self.poll(shop, id)
            #expect(first.status == 400)
            #expect(Self.error(first) == "authorization_pending")
            #expect(Self.error(try await Self.poll(shop, id)) == "slow_down")
            api.clock.advance(by: 5)
            #expect(Self.error(try await Self.poll(shop, id)) == "authorization_pending")

            let shown = try #require(try await phone.pending().first)
            #expect(shown.bindingMessage == "Sign in to Shop")
            #expect(shown.operation == .login)
            #expect(try await phone.approve(shown).status == 200)
            api.clock.advance(by: 5)
            let granted = try await Self.poll(shop, id)
            #expect(granted.status == 200)
            let accessToken = try #require(granted.json["access_token"] as? String)
            let idToken = try #require(granted.json["id_token"] as? String)
            #expect(granted.json["scope"] as? String == "openid")
            let claims = try jwtClaims(idToken)
            #expect(claims["sub"] as? String == userID)
            #expect(claims["aud"] as? String == shop.clientID || (claims["aud"] as? [String]) == [shop.clientID])
            #expect(try jwtClaims(accessToken)["op"] as? String == "login")
            // Once.
            api.clock.advance(by: 5)
            #expect(Self.error(try await Self.poll(shop, id)) == "invalid_grant")

            // Refused on the phone: access_denied.
            let refused = try #require(
                try await Self.authorize(shop, ["scope": "openid", "login_hint": userID]).json["auth_req_id"] as? String)
            let next = try #require(try await phone.pending().first)
            #expect(try await phone.reject(next.operationId, .notMe).status == 200)
            #expect(Self.error(try await Self.poll(shop, refused)) == "access_denied")

            // Nobody answers: expired_token.
            let late = try #require(
                try await Self.authorize(shop, ["scope": "openid", "login_hint": userID, "requested_expiry": "10"])
                    .json["auth_req_id"] as? String)
            api.clock.advance(by: 10)
            #expect(Self.error(try await Self.poll(shop, late)) == "expired_token")
        }
    }

    @Test("bad requests: unknown user, binding message, scope, hints, expiry, client; foreign or forged auth_req_id")
    func errors() async throws {
        try await TestServer().run { api in
            let (shop, _, _) = try await Self.setUp(api)
            let other = try await PartnerFixture.make(api)
            func error(_ fields: [String: String], as fixture: PartnerFixture? = nil, secret: String? = nil) async throws -> (Int, String?) {
                let response = try await Self.authorize(fixture ?? shop, fields, secret: secret)
                return (response.status, Self.error(response))
            }
            let base = ["scope": "openid", "login_hint": "alice@example.com"]
            #expect(try await error(base.merging(["login_hint": "nobody@example.com"]) { $1 }) == (400, "unknown_user_id"))
            // Alice never signed in to the other client: unknown to it.
            #expect(try await error(base, as: other) == (400, "unknown_user_id"))
            #expect(try await error(base.merging(["binding_message": "a\u{7}b"]) { $1 }) == (400, "invalid_binding_message"))
            #expect(try await error(base.merging(["binding_message": String(repeating: "x", count: 65)]) { $1 }) == (400, "invalid_binding_message"))
            #expect(try await error(["login_hint": "alice@example.com"]) == (400, "invalid_scope"))
            #expect(try await error(["scope": "openid"]) == (400, "invalid_request"))
            #expect(try await error(base.merging(["requested_expiry": "901"]) { $1 }) == (400, "invalid_request"))
            #expect(try await error(base, secret: "wrong") == (401, "invalid_client"))
            let publicClient = try await PartnerFixture.make(api, publicClient: true)
            #expect(try await error(base, as: publicClient) == (400, "unauthorized_client"))
            #expect(try await Self.audit(api, "operation.created") == 0)

            let id = try #require(try await Self.authorize(shop, base).json["auth_req_id"] as? String)
            let foreign = try await other.token(["grant_type": "urn:openid:params:grant-type:ciba", "auth_req_id": id])
            #expect(Self.error(foreign) == "invalid_grant")
            let forged = id.replacingOccurrences(of: "b3Blbmlk", with: "b3BlbmlkIGNvbnNlbnRz")
            #expect(forged != id)
            #expect(Self.error(try await Self.poll(shop, forged)) == "invalid_grant")
            #expect(Self.error(try await Self.poll(shop, "op_unknown.x.y")) == "invalid_grant")
        }
    }

    static func audit(_ api: APIClient, _ event: String) async throws -> Int {
        try await api.services.store.auditEntries(after: 0, limit: 10_000).filter { $0.draft.event == event }.count
    }

    @Test("discovery advertises the backchannel endpoint, poll and ping modes and the CIBA grant")
    func discovery() async throws {
        try await TestServer().run { api in
            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect((discovery["backchannel_authentication_endpoint"] as? String)?.hasSuffix("/oauth2/bc-authorize") == true)
            #expect(discovery["backchannel_token_delivery_modes_supported"] as? [String] == ["poll", "ping"])
            #expect((discovery["grant_types_supported"] as? [String])?.contains("urn:openid:params:grant-type:ciba") == true)
        }
    }

    @Test("openapi.yaml documents the backchannel endpoint and every CIBA error code")
    func documented() async throws {
        try await TestServer().run { api in
            let text = String(decoding: try await api.send(.get, "/openapi.yaml").body, as: UTF8.self)
            #expect(text.contains("\n  /oauth2/bc-authorize:\n"))
            for code in [
                "authorization_pending", "slow_down", "expired_token", "access_denied", "invalid_grant", "unknown_user_id",
                "invalid_binding_message", "invalid_scope", "unauthorized_client", "urn:openid:params:grant-type:ciba",
            ] {
                #expect(text.contains("`\(code)`"), "\(code) is not documented")
            }
        }
    }
}
