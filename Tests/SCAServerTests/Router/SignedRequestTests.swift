import Foundation
import HTTPTypes
import JWTKit
import SCACore
import SCAEngine
import Testing

/// The signed half of FAPI 2.0 Message Signing: authorization requests pushed as signed request
/// objects (RFC 9101), whose parameters alone count, and authorization responses as signed JWTs
/// (JARM) that only the client they name can take for its own.
@Suite("Signed request objects and JWT authorization responses")
struct SignedRequestTests {
    static func push(_ client: KeyClient, _ requestObject: String?, form: [String: String] = [:]) async throws -> APIResponse {
        var fields = form
        if let requestObject { fields["request"] = requestObject }
        fields["client_id"] = client.clientID
        return try await client.post("/oauth2/par", fields)
    }

    @Test("a signed request object's parameters are the request; the form's others count for nothing")
    func signedRequest() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api, requireSignedRequestObject: true)
            _ = try await api.createUser("jar@example.com", phone: "+33612340711")
            let (verifier, challenge) = PartnerFixture.pkce("j")
            let signed = try await client.requestObject(client.requestClaims(challenge: challenge))
            // A scope smuggled beside the signed request is not taken.
            let pushed = try await Self.push(client, signed, form: ["scope": "openid email offline"])
            let uri = try PushedAuthorizationTests.requestURI(pushed)
            let query = try await PartnerFixture.signIn(
                PageBrowser(api: api), at: client.authorizePath(requestURI: uri), email: "jar@example.com", phone: "+33612340711",
                redirectURI: KeyClient.redirectURI)
            #expect(query["state"] == "st-signed")
            let tokens = try await client.token(
                ["grant_type": "authorization_code", "code": try #require(query["code"]), "redirect_uri": KeyClient.redirectURI,
                 "code_verifier": verifier],
                dpop: DPoPKey())
            #expect(tokens.json["scope"] as? String == "openid", "the signed scope, not the form's: \(tokens.text)")
            #expect(tokens.json["refresh_token"] == nil)
        }
    }

    @Test("refused: unsigned for a client that must sign, another key, wrong aud or iss, no nbf, too long-lived, expired, or another typ")
    func refusals() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api, requireSignedRequestObject: true)
            let (_, challenge) = PartnerFixture.pkce("j")
            let unsigned = try await client.push(challenge: challenge)
            #expect(unsigned.status == 400 && unsigned.json["error"] as? String == "invalid_request", "\(unsigned.text)")

            let good = client.requestClaims(challenge: challenge)
            let now = api.clock.now().timeIntervalSince1970.rounded(.down)
            func with(_ change: (inout [String: JSONValue]) -> Void) -> [String: JSONValue] {
                var claims = good
                change(&claims)
                return claims
            }
            let cases: [(String, String)] = [
                (try await client.requestObject(good, signer: .es256(ES256PrivateKey())), "another key"),
                (try await client.requestObject(with { $0["aud"] = "https://elsewhere.example" }), "another audience"),
                (try await client.requestObject(with { $0["iss"] = "cli_someone" }), "another issuer"),
                (try await client.requestObject(with { $0["client_id"] = nil }), "no client_id"),
                (try await client.requestObject(with { $0["nbf"] = nil }), "no nbf"),
                (try await client.requestObject(with { $0["exp"] = .number(now + 3_700) }), "valid over an hour"),
                (try await client.requestObject(with { $0["nbf"] = .number(now - 3_700); $0["exp"] = .number(now + 10) }), "nbf over an hour ago"),
                (try await client.requestObject(with { $0["exp"] = .number(now - 1); $0["nbf"] = .number(now - 60) }), "expired"),
                (try await client.requestObject(with { $0["request_uri"] = "urn:x" }), "a request_uri inside"),
                (try await client.requestObject(good, typ: "dpop+jwt"), "a DPoP proof's typ"),
                ("eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.", "alg none"),
            ]
            for (object, why) in cases {
                let answer = try await Self.push(client, object)
                #expect(answer.status == 400, "\(why)")
                #expect(answer.json["error"] as? String == "invalid_request_object", "\(why): \(answer.text)")
            }
            // The object's own parameters are checked as any request's.
            let badScope = try await Self.push(client, try await client.requestObject(with { $0["scope"] = "openid admin" }))
            #expect(badScope.json["error"] as? String == "invalid_scope")
            // A request object sent by the browser is refused at the authorization endpoint.
            let partner = try await PartnerFixture.make(api)
            let browser = try await PageBrowser(api: api).get(partner.authorizePath(challenge: challenge) + "&request=eyJ")
            let location = PageBrowser.query(of: try #require(browser.headers[.location]))
            #expect(location["error"] == "request_not_supported")
            // Registering the requirement needs keys to sign with.
            let secretClient = try await api.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(name: "S", redirectUris: [KeyClient.redirectURI], requireSignedRequestObject: true), admin: true)
            #expect(secretClient.status == 400)
        }
    }

    @Test("introspection answers a JWT signed by the server, typed token-introspection+jwt, for the client that asked")
    func signedIntrospection() async throws {
        try await TestServer().run { api in
            let bound = try await DPoPTests.bound(api, email: "introspect@example.com", phone: "+33612340713")
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .accept: "application/token-introspection+jwt"]
            headers[.cacheControl] = nil
            let fields = ["token": bound.accessToken].merging(KeyClient.credentials(try await bound.client.assertion())) { $1 }
            let answer = try await api.form("/oauth2/introspect", fields, headers: headers)
            #expect(answer.status == 200)
            #expect(answer.headers[.contentType] == "application/token-introspection+jwt")
            let header = try #require(CompactJWS.decode([String: String].self, segment: 0, of: answer.text))
            #expect(header["typ"] == "token-introspection+jwt" && header["alg"] == "ES256")
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: String(decoding: try await api.send(.get, "/.well-known/jwks.json").body, as: UTF8.self))
            let claims = try await keys.verify(answer.text, as: KeyClient.AnyClaims.self).values
            #expect(claims["iss"] == .string(api.services.configuration.baseURL))
            #expect(claims["aud"] == .string(bound.client.clientID) || claims["aud"] == .array([.string(bound.client.clientID)]))
            guard case .object(let introspection)? = claims["token_introspection"] else {
                Issue.record("no token_introspection")
                return
            }
            #expect(introspection["active"] == .bool(true))
            #expect(introspection["token_type"] == "DPoP")
            #expect(introspection["client_id"] == .string(bound.client.clientID))
        }
    }

    @Test("response_mode=jwt: the code comes back signed by the server's key, for this client, with state and iss; errors too")
    func jwtResponse() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api)
            _ = try await api.createUser("jarm@example.com", phone: "+33612340712")
            let (verifier, challenge) = PartnerFixture.pkce("m")
            let uri = try PushedAuthorizationTests.requestURI(
                try await client.push(challenge: challenge, extra: ["response_mode": "jwt"]))
            let query = try await PartnerFixture.signIn(
                PageBrowser(api: api), at: client.authorizePath(requestURI: uri), email: "jarm@example.com", phone: "+33612340712",
                redirectURI: KeyClient.redirectURI)
            #expect(Set(query.keys) == ["response"], "one parameter, nothing readable beside it")
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: String(decoding: try await api.send(.get, "/.well-known/jwks.json").body, as: UTF8.self))
            let response = try await keys.verify(try #require(query["response"]), as: KeyClient.AnyClaims.self).values
            #expect(response["iss"] == .string(api.services.configuration.baseURL))
            #expect(response["aud"] == .string(client.clientID) || response["aud"] == .array([.string(client.clientID)]))
            #expect(response["state"] == "st-fapi")
            guard case .number(let exp)? = response["exp"] else { Issue.record("no exp"); return }
            #expect(exp > api.clock.now().timeIntervalSince1970 && exp <= api.clock.now().timeIntervalSince1970 + 60)
            guard case .string(let code)? = response["code"] else { Issue.record("no code"); return }
            let tokens = try await client.token(
                ["grant_type": "authorization_code", "code": code, "redirect_uri": KeyClient.redirectURI, "code_verifier": verifier],
                dpop: DPoPKey())
            #expect(tokens.status == 200, "\(tokens.text)")

            // A refusal told to the redirect URI is a signed response too.
            let browser = PageBrowser(api: api)
            let start = try await browser.get(
                client.authorizePath(requestURI: try PushedAuthorizationTests.requestURI(
                    try await client.push(challenge: challenge, extra: ["response_mode": "jwt"]))))
            let back = try await browser.submit(start, action: "/signin/cancel", [:])
            let error = PageBrowser.query(of: try #require(back.headers[.location]))
            let refused = try await keys.verify(try #require(error["response"]), as: KeyClient.AnyClaims.self).values
            #expect(refused["error"] == "access_denied" && refused["state"] == "st-fapi")
            // An unknown response mode is refused.
            let fragment = try await client.push(challenge: challenge, extra: ["response_mode": "fragment"])
            #expect(fragment.status == 400 && fragment.json["error"] as? String == "invalid_request")
            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["response_modes_supported"] as? [String] == ["query", "jwt", "query.jwt"])
            #expect(discovery["authorization_signing_alg_values_supported"] as? [String] == ["ES256"])
        }
    }
}
