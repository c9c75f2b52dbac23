import Foundation
import HTTPTypes
import SCACore
import Testing

/// OpenID Connect RP-initiated logout: a partner ends the session its sign-in opened, with the
/// id_token it was given, and the user goes back only to an address the partner registered.
@Suite("The end-session endpoint")
struct LogoutTests {
    static let afterLogout = "https://shop.example/signed-out"

    /// A partner registered with a post-logout address, and a user's tokens from its sign-in.
    static func signedIn(_ api: APIClient, email: String) async throws -> (PartnerFixture, [String: Any]) {
        let response = try await api.post(
            "/admin/v1/clients",
            CreatePartnerClientRequest(
                name: "Shop", redirectUris: [PartnerFixture.redirectURI], consentRedirectUris: [PartnerFixture.consentRedirect],
                postLogoutRedirectUris: [afterLogout]),
            admin: true)
        #expect(response.status == 201)
        let client = try response.decode(PartnerClientResponse.self)
        #expect(client.postLogoutRedirectUris == [afterLogout])
        let partner = PartnerFixture(
            api: api, clientID: client.clientId, clientSecret: client.clientSecret, redirectURI: PartnerFixture.redirectURI,
            consentRedirect: PartnerFixture.consentRedirect)
        return (partner, try await partner.tokens(email: email, phone: "+33612340811"))
    }

    @Test("logout with the id_token ends the session: its access and refresh tokens stop working; back to the registered address with state")
    func endsTheSession() async throws {
        try await TestServer().run { api in
            let (partner, tokens) = try await Self.signedIn(api, email: "logout@example.com")
            let idToken = try #require(tokens["id_token"] as? String)
            let accessToken = try #require(tokens["access_token"] as? String)
            #expect(try await api.introspect(accessToken).active)
            let path = "/oauth2/logout?id_token_hint=\(idToken)&post_logout_redirect_uri=\(RedirectURIRules.formEncoded(Self.afterLogout))&state=s-9"
            let answer = try await PageBrowser(api: api).get(path)
            #expect(answer.status == 303)
            #expect(answer.headers[.location] == Self.afterLogout + "?state=s-9")
            #expect(!(try await api.introspect(accessToken).active), "the session ended")
            let refreshed = try await partner.token(["grant_type": "refresh_token", "refresh_token": try #require(tokens["refresh_token"] as? String)])
            #expect(refreshed.json["error"] as? String == "invalid_grant")
            // The same request again changes nothing and still goes back.
            #expect(try await PageBrowser(api: api).get(path).status == 303)
        }
    }

    @Test("without a return address the page says the user is signed out; a form POST works as the query does")
    func signedOutPage() async throws {
        try await TestServer().run { api in
            let (_, tokens) = try await Self.signedIn(api, email: "page@example.com")
            let answer = try await api.form("/oauth2/logout", ["id_token_hint": try #require(tokens["id_token"] as? String)])
            #expect(answer.status == 200)
            #expect(answer.text.contains("You are signed out"))
            #expect(answer.text.contains("Shop can no longer act with this sign-in"))
            #expect(!(try await api.introspect(try #require(tokens["access_token"] as? String)).active))
        }
    }

    @Test("refused, with nothing ended and no redirect: no or a forged id_token, another client named, an unregistered address")
    func refusals() async throws {
        try await TestServer().run { api in
            let (partner, tokens) = try await Self.signedIn(api, email: "refuse@example.com")
            let idToken = try #require(tokens["id_token"] as? String)
            let other = try await PartnerFixture.make(api)
            var forged = Array(idToken)
            forged[forged.count - 5] = forged[forged.count - 5] == "A" ? "B" : "A"
            for (query, why) in [
                ("", "no id_token_hint"),
                ("id_token_hint=\(String(forged))", "a forged signature"),
                ("id_token_hint=\(try #require(tokens["access_token"] as? String))", "an access token"),
                ("id_token_hint=\(idToken)&client_id=\(other.clientID)", "another client"),
                ("id_token_hint=\(idToken)&post_logout_redirect_uri=\(RedirectURIRules.formEncoded("https://evil.example/"))", "an unregistered address"),
            ] {
                let answer = try await PageBrowser(api: api).get("/oauth2/logout?" + query)
                #expect(answer.status == 400, "\(why)")
                #expect(answer.headers[.location] == nil, "\(why)")
            }
            #expect(try await api.introspect(try #require(tokens["access_token"] as? String)).active, "nothing was ended")
            _ = partner
            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["end_session_endpoint"] as? String == api.services.configuration.baseURL + "/oauth2/logout")
        }
    }
}
