import Foundation
import HTTPTypes
import JWTKit
import SCACore
import Testing

/// Pushed authorization requests (RFC 9126) and the FAPI 2.0 client: the request travels
/// from the partner's back end, authenticated, and the browser carries only a `request_uri`
/// that works once, for a minute, for that client.
@Suite("Pushed authorization requests and the fapi2 client")
struct PushedAuthorizationTests {
    static func requestURI(_ response: APIResponse) throws -> String {
        #expect(response.status == 201, "\(response.text)")
        #expect(response.json["expires_in"] as? Int == 60)
        let uri = try #require(response.json["request_uri"] as? String)
        #expect(uri.hasPrefix("urn:ietf:params:oauth:request_uri:"))
        return uri
    }

    @Test("PAR, the hosted sign-in and the code exchange, all with private_key_jwt; the request_uri works once")
    func fapiSignIn() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api)
            _ = try await api.createUser("fapi@example.com", phone: "+33612340311")
            let (verifier, challenge) = PartnerFixture.pkce("f")
            let uri = try Self.requestURI(try await client.push(challenge: challenge, scope: "openid"))
            let browser = PageBrowser(api: api)
            let query = try await PartnerFixture.signIn(
                browser, at: client.authorizePath(requestURI: uri), email: "fapi@example.com", phone: "+33612340311",
                redirectURI: KeyClient.redirectURI)
            #expect(query["state"] == "st-fapi")
            #expect(query["iss"] == api.services.configuration.baseURL)
            let code = try #require(query["code"])
            let tokens = try await client.token(
                ["grant_type": "authorization_code", "code": code, "redirect_uri": KeyClient.redirectURI, "code_verifier": verifier],
                dpop: DPoPKey())
            #expect(tokens.status == 200, "\(tokens.text)")
            #expect(tokens.json["token_type"] as? String == "DPoP")
            #expect(tokens.json["access_token"] is String && tokens.json["id_token"] is String)

            // The same request_uri again, in another browser: refused, with nothing sent to the client.
            let again = try await PageBrowser(api: api).get(client.authorizePath(requestURI: uri))
            #expect(again.status == 400)
            #expect(again.text.contains("This sign-in link has expired or has been used already."))
        }
    }

    @Test("a fapi2 client cannot start with query parameters; PAR needs client authentication and a registered redirect_uri")
    func refusals() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api)
            let (_, challenge) = PartnerFixture.pkce()
            let plain = try await PageBrowser(api: api).get(
                "/oauth2/authorize?response_type=code&client_id=\(client.clientID)&redirect_uri=\(RedirectURIRules.formEncoded(KeyClient.redirectURI))"
                    + "&scope=openid&code_challenge=\(challenge)&code_challenge_method=S256&state=s1")
            #expect(plain.status == 303)
            let location = try #require(plain.headers[.location])
            let error = PageBrowser.query(of: location)
            #expect(error["error"] == "invalid_request" && error["state"] == "s1")
            #expect(error["error_description"]?.contains("/oauth2/par") == true)

            // No client authentication: a fapi2 client is not a public one.
            let anonymous = try await api.form(
                "/oauth2/par",
                ["response_type": "code", "client_id": client.clientID, "redirect_uri": KeyClient.redirectURI, "scope": "openid",
                 "code_challenge": challenge, "code_challenge_method": "S256"])
            #expect(anonymous.status == 401 && anonymous.json["error"] as? String == "invalid_client")
            // The request itself is checked as at the authorization endpoint, answered as JSON.
            for (extra, error) in [
                (["redirect_uri": "https://evil.example/cb"], "invalid_request"), (["code_challenge_method": "plain"], "invalid_request"),
                (["scope": "openid admin"], "invalid_scope"), (["response_type": "token"], "unsupported_response_type"),
                (["request_uri": "urn:ietf:params:oauth:request_uri:x"], "invalid_request"),
            ] {
                let answer = try await client.push(challenge: challenge, extra: extra)
                #expect(answer.status == 400, "\(extra)")
                #expect(answer.json["error"] as? String == error, "\(extra): \(answer.text)")
            }
            let missing = try await client.post(
                "/oauth2/par",
                ["response_type": "code", "client_id": client.clientID, "scope": "openid", "code_challenge": challenge,
                 "code_challenge_method": "S256"])
            #expect(missing.status == 400 && (missing.json["error_description"] as? String)?.contains("redirect_uri") == true)
        }
    }

    @Test("a request_uri is refused after its minute, for another client, or altered, and nothing reaches a redirect URI")
    func requestURIRefusals() async throws {
        try await TestServer().run { api in
            let client = try await KeyClient.make(api)
            let other = try await KeyClient.make(api, kid: "other-key")
            let (_, challenge) = PartnerFixture.pkce()
            func refused(_ path: String, _ reason: String) async throws {
                let page = try await PageBrowser(api: api).get(path)
                #expect(page.status == 400, "\(reason)")
                #expect(page.headers[.location] == nil, "\(reason)")
            }
            let late = try Self.requestURI(try await client.push(challenge: challenge))
            let stolen = try Self.requestURI(try await client.push(challenge: challenge))
            let pushedURI = try Self.requestURI(try await client.push(challenge: challenge))
            // One character of the sealed part changed, to one it certainly is not.
            var characters = Array(pushedURI)
            let middle = characters.count - 20
            characters[middle] = characters[middle] == "A" ? "B" : "A"
            let altered = String(characters)
            try await refused(client.authorizePath(requestURI: stolen, clientID: other.clientID), "another client's")
            try await refused(client.authorizePath(requestURI: altered), "altered")
            try await refused(client.authorizePath(requestURI: "urn:ietf:params:oauth:request_uri:bm9wZQ"), "made up")
            api.clock.advance(by: 61)
            try await refused(client.authorizePath(requestURI: late), "after its minute")
            // The stolen one, refused for the other client, was not burned by that: still its own client's.
            api.clock.advance(by: -61)
            let own = try await PageBrowser(api: api).get(client.authorizePath(requestURI: stolen))
            #expect(own.status == 200)
        }
    }

    @Test("a standard client may push its request too, with its secret; discovery names the endpoint and the methods")
    func standardClientAndDiscovery() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let (_, challenge) = PartnerFixture.pkce()
            let pushed = try await api.form(
                "/oauth2/par",
                ["response_type": "code", "client_id": partner.clientID, "client_secret": try #require(partner.clientSecret),
                 "redirect_uri": partner.redirectURI, "scope": "openid", "code_challenge": challenge, "code_challenge_method": "S256"])
            let uri = try Self.requestURI(pushed)
            let page = try await PageBrowser(api: api).get("/oauth2/authorize?client_id=\(partner.clientID)&request_uri=\(RedirectURIRules.formEncoded(uri))")
            #expect(page.status == 200 && page.text.contains("Shop"))

            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["pushed_authorization_request_endpoint"] as? String == api.services.configuration.baseURL + "/oauth2/par")
            #expect(discovery["require_pushed_authorization_requests"] as? Bool == false)
            #expect((discovery["token_endpoint_auth_methods_supported"] as? [String])?.contains("private_key_jwt") == true)
            #expect(discovery["token_endpoint_auth_signing_alg_values_supported"] as? [String] == ["ES256", "PS256", "EdDSA", "RS256"])
            #expect(discovery["dpop_signing_alg_values_supported"] as? [String] == ["ES256", "PS256", "EdDSA"])
        }
    }
}
