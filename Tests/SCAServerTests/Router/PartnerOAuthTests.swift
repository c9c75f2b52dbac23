import Foundation
import HTTPTypes
import JWTKit
import SCACore
import Testing

@Suite("Partner clients and the OAuth 2.0 code flow with PKCE")
struct PartnerOAuthTests {
    @Test("a client's secret is shown once and only its hash is kept; bad redirect URIs are refused; removal is audited")
    func clientAdministration() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let secret = try #require(partner.clientSecret)
            #expect(Base64URL.decode(secret)?.count == 32)
            let list = try await api.send(.get, "/admin/v1/clients", admin: true)
            #expect(list.status == 200)
            #expect(!list.text.contains(secret))
            #expect(try list.decode([PartnerClientResponse].self).map(\.clientId) == [partner.clientID])
            let stored = try #require(try await api.services.store.partnerClient(id: partner.clientID))
            #expect(stored.secretHash != Array(secret.utf8))

            for bad in [
                "http://shop.example/cb", "javascript:alert(1)", "https://shop.example/cb#frag", "https://user@shop.example/cb",
                "data:text/html,hi", "cb",
            ] {
                let refused = try await api.post(
                    "/admin/v1/clients", CreatePartnerClientRequest(name: "Bad", redirectUris: [bad]), admin: true)
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.problem?.code == .requestInvalid)
            }
            // The name is shown to users on the pages: display text only, so no control character
            // (which PostgreSQL would not even store) and no bidirectional override can spoof it.
            for bad in ["Shop\u{0}", "\u{202E}yaP EMCA", "Shop\u{7}", "", String(repeating: "a", count: 101)] {
                let refused = try await api.post(
                    "/admin/v1/clients", CreatePartnerClientRequest(name: bad, redirectUris: ["https://shop.example/cb"]),
                    admin: true)
                #expect(refused.status == 400, "\(bad.unicodeScalars.map(\.value))")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.hasPrefix("name") == true)
            }
            let spaced = try await api.post(
                "/admin/v1/clients", CreatePartnerClientRequest(name: " Cafe\u{301} ", redirectUris: ["https://shop.example/cb"]),
                admin: true)
            #expect(try spaced.decode(PartnerClientResponse.self).name == "Caf\u{E9}", "trimmed and in NFC")
            #expect(try await api.services.partnerAccess.partners.list().count == 2, "the refused ones stored nothing")
            for good in ["http://localhost:5173/cb", "http://127.0.0.1:9/cb", "com.example.app:/cb", "https://a.example/x?y=1"] {
                #expect(RedirectURIRules.problem(good) == nil, "\(good)")
            }
            let anonymous = try await api.send(.get, "/admin/v1/clients")
            #expect(anonymous.status == 401)

            #expect(try await api.send(.delete, "/admin/v1/clients/\(partner.clientID)", admin: true).status == 200)
            #expect(try await api.send(.delete, "/admin/v1/clients/\(partner.clientID)", admin: true).problem?.code == .clientNotFound)
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft.event)
            #expect(events.contains("partner.client_created"))
            #expect(events.contains("partner.client_removed"))
        }
    }

    @Test("sign-in through the pages ends at the client with a code and the state; the code buys tokens and an id_token once")
    func codeFlow() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let userID = try await api.createUser("flow@example.com", phone: "+33612345601")
            _ = try await api.services.users.setRoles(userID: userID, ["support"], byOperator: nil)
            let (verifier, challenge) = PartnerFixture.pkce()
            let query = try await partner.signIn(PageBrowser(api: api), email: "flow@example.com", phone: "+33612345601", challenge: challenge)
            #expect(query["state"] == "st-123")
            #expect(query["iss"] == api.services.configuration.baseURL)
            let code = try #require(query["code"])

            let response = try await partner.exchange(code: code, verifier: verifier)
            #expect(response.status == 200)
            #expect(response.headers[.cacheControl] == "no-store")
            let json = response.json
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["refresh_token"] is String)
            let accessToken = try #require(json["access_token"] as? String)
            let introspected = try await api.introspect(accessToken, operation: .login)
            #expect(introspected.active && introspected.sub == userID)

            // The id_token, checked against the published keys.
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: String(decoding: try await api.send(.get, "/.well-known/jwks.json").body, as: UTF8.self))
            let idToken = try await keys.verify(try #require(json["id_token"] as? String), as: PartnerIDToken.self)
            #expect(idToken.iss.value == api.services.configuration.baseURL)
            #expect(idToken.aud.value == [partner.clientID])
            #expect(idToken.sub.value == userID)
            #expect(idToken.nonce == "n-456")
            #expect(idToken.acr == TokenResponse.scaACR)
            #expect(Set(idToken.amr) == ["password", "sms_otp"])
            #expect(idToken.auth_time == Int(api.clock.now().timeIntervalSince1970))
            // Roles as in the access token; no role is defined in this configuration, so it grants nothing.
            #expect(idToken.roles == ["support"])
            #expect(idToken.permissions == [])

            // userinfo with the access token.
            let info = try await api.client.execute(
                uri: "/oauth2/userinfo", method: .get, headers: [.authorization: "Bearer \(accessToken)"], body: nil)
            #expect(info.status == .ok)
            #expect(String(buffer: info.body).contains("flow@example.com"))

            // Client authentication by HTTP Basic works the same; a wrong secret is invalid_client.
            let basicWrong = try await partner.token(["grant_type": "refresh_token", "refresh_token": "x"], basic: true, secret: "nope")
            #expect(basicWrong.status == 401)
            #expect(basicWrong.json["error"] as? String == "invalid_client")
            #expect(basicWrong.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            let refreshed = try await partner.token(
                ["grant_type": "refresh_token", "refresh_token": try #require(json["refresh_token"] as? String)], basic: true)
            #expect(refreshed.status == 200)
            #expect(refreshed.json["access_token"] is String)
            // The old refresh token again: reuse detected, the family revoked.
            let reused = try await partner.token(
                ["grant_type": "refresh_token", "refresh_token": try #require(json["refresh_token"] as? String)])
            #expect(reused.json["error"] as? String == "invalid_grant")
            #expect(try await api.introspect(try #require(refreshed.json["access_token"] as? String)).active == false)
        }
    }

    @Test("a code used twice is refused and every token issued from it is revoked")
    func codeReuseRevokes() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("twice@example.com", phone: "+33612345602")
            let (verifier, challenge) = PartnerFixture.pkce()
            let query = try await partner.signIn(PageBrowser(api: api), email: "twice@example.com", phone: "+33612345602", challenge: challenge)
            let code = try #require(query["code"])
            let first = try await partner.exchange(code: code, verifier: verifier)
            #expect(first.status == 200)
            let accessToken = try #require(first.json["access_token"] as? String)
            #expect(try await api.introspect(accessToken).active)

            let second = try await partner.exchange(code: code, verifier: verifier)
            #expect(second.status == 400)
            #expect(second.json["error"] as? String == "invalid_grant")
            #expect(try await api.introspect(accessToken).active == false)
            let refresh = try await partner.token(
                ["grant_type": "refresh_token", "refresh_token": try #require(first.json["refresh_token"] as? String)])
            #expect(refresh.json["error"] as? String == "invalid_grant")
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000)
            let refusals = events.filter { $0.draft.event == "oauth.code_refused" }.map(\.draft.outcome)
            #expect(refusals == ["reused"])
        }
    }

    @Test("PKCE: a missing or wrong verifier is refused (and burns the code), an expired code too")
    func pkceAndExpiry() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("pkce@example.com", phone: "+33612345603")
            let (verifier, challenge) = PartnerFixture.pkce()

            var query = try await partner.signIn(PageBrowser(api: api), email: "pkce@example.com", phone: "+33612345603", challenge: challenge)
            let missing = try await partner.token([
                "grant_type": "authorization_code", "code": try #require(query["code"]), "redirect_uri": PartnerFixture.redirectURI,
            ])
            #expect(missing.status == 400)
            #expect(missing.json["error"] as? String == "invalid_request")
            let wrong = try await partner.exchange(code: try #require(query["code"]), verifier: PartnerFixture.pkce("b").verifier)
            #expect(wrong.json["error"] as? String == "invalid_grant")
            // Burnt by the wrong try: the right verifier comes too late.
            #expect(try await partner.exchange(code: try #require(query["code"]), verifier: verifier).status == 400)

            api.clock.advance(by: 30)
            query = try await partner.signIn(PageBrowser(api: api), email: "pkce@example.com", phone: "+33612345603", challenge: challenge)
            api.clock.advance(by: 61)
            let expired = try await partner.exchange(code: try #require(query["code"]), verifier: verifier)
            #expect(expired.json["error"] as? String == "invalid_grant")
            #expect((expired.json["error_description"] as? String)?.contains("expired") == true)
        }
    }

    @Test("authorize: an unknown client or unregistered redirect_uri gets an error page and never a redirect; other errors go back with the state")
    func authorizeErrors() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let challenge = PartnerFixture.pkce().challenge
            // A client that does not exist is not found; an address the client did not register
            // is refused. Nothing is told to any address.
            for (path, status) in [
                (partner.authorizePath(challenge: challenge, redirectURI: "https://evil.example/callback"), 403),
                (partner.authorizePath(challenge: challenge, redirectURI: PartnerFixture.redirectURI + "/more"), 403),
                (partner.authorizePath(challenge: challenge, clientID: "cli_unknown"), 404),
                (partner.authorizePath(challenge: nil, method: "plain", redirectURI: "https://evil.example/callback"), 403),
            ] {
                let page = try await api.send(.get, path)
                #expect(page.status == status, "\(path)")
                #expect(page.headers[.location] == nil)
                #expect(page.text.contains("Sign-in not possible"))
            }
            let plain = try await api.send(.get, partner.authorizePath(challenge: PartnerFixture.pkce().verifier, method: "plain"))
            #expect(plain.status == 303)
            let refused = PageBrowser.query(of: try #require(plain.headers[.location]))
            #expect(refused["error"] == "invalid_request")
            #expect(refused["state"] == "st-123")
            let noPKCE = try await api.send(.get, partner.authorizePath(challenge: nil, method: nil))
            #expect(PageBrowser.query(of: try #require(noPKCE.headers[.location]))["error"] == "invalid_request")
            let scope = try await api.send(.get, partner.authorizePath(challenge: challenge, scope: "openid admin"))
            #expect(PageBrowser.query(of: try #require(scope.headers[.location]))["error"] == "invalid_scope")
        }
    }

    @Test("every page has the security headers and the cookie is HttpOnly, SameSite=Lax; a form without its CSRF token does nothing")
    func pageHeadersCookieAndCSRF() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let page = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(page.status == 200)
            #expect(page.headers[.contentSecurityPolicy] == "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                + "form-action 'self' https://shop.example; frame-ancestors 'none'; base-uri 'none'")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            let cookie = try #require(browser.setCookies.first)
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"))
            #expect(page.text.contains("<link rel=\"stylesheet\" href=\"/hosted/style.css\">"))
            #expect(!page.text.contains("<script"))
            let style = try await api.send(.get, "/hosted/style.css")
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")

            let before = try await api.services.store.auditEntries(after: 0, limit: 1_000).count
            let forged = try await browser.submit(page, action: "/signin/email", ["email": "someone@example.com"], csrf: "forged")
            #expect(forged.status == 403)
            #expect(forged.text.contains("This sign-in has ended"))
            let after = try await api.services.store.auditEntries(after: 0, limit: 1_000)
            let created = after.dropFirst(before).filter { $0.draft.event == "challenge.created" }
            #expect(created.isEmpty)
            // The token of another form is not this form's.
            let other = try #require(PageBrowser.csrf(in: page, action: "/signin/cancel"))
            let otherForm = try await browser.submit(page, action: "/signin/email", ["email": "a@example.com"], csrf: other)
            #expect(otherForm.status == 403)
        }
        try await TestServer { $0.publicBaseURL = "https://sca.bank.example" }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            _ = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(try #require(browser.setCookies.first).contains("; Secure"))
            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["issuer"] as? String == "https://sca.bank.example")
            #expect(discovery["token_endpoint"] as? String == "https://sca.bank.example/oauth2/token")
            #expect(discovery["code_challenge_methods_supported"] as? [String] == ["S256"])
        }
    }

    @Test("a public client proves itself with PKCE alone; revocation ends the session of its token")
    func publicClientAndRevocation() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api, publicClient: true)
            #expect(partner.clientSecret == nil)
            _ = try await api.createUser("public@example.com", phone: "+33612345604")
            let (verifier, challenge) = PartnerFixture.pkce()
            let query = try await partner.signIn(PageBrowser(api: api), email: "public@example.com", phone: "+33612345604", challenge: challenge)
            let withSecret = try await partner.token(
                ["grant_type": "authorization_code", "code": try #require(query["code"]), "redirect_uri": PartnerFixture.redirectURI,
                 "code_verifier": verifier], secret: "invented")
            #expect(withSecret.json["error"] as? String == "invalid_client")
            let response = try await partner.exchange(code: try #require(query["code"]), verifier: verifier)
            #expect(response.status == 200)
            let accessToken = try #require(response.json["access_token"] as? String)
            let revoked = try await api.form("/oauth2/revoke", ["client_id": partner.clientID, "token": accessToken])
            #expect(revoked.status == 200)
            #expect(try await api.introspect(accessToken).active == false)
        }
    }

    @Test("the sign-in page never says which factor was wrong, and a blocked user is told so")
    func wrongFactorAndBlock() async throws {
        try await TestServer { $0.lockout.maxFailedAttempts = 2 }.run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("wrong@example.com", phone: "+33612345605")
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            try await browser.submit(start, action: "/signin/email", ["email": "wrong@example.com"])
            var page = try await browser.get("/signin")
            try await browser.submit(page, action: "/signin/proof", ["method": "password", "credential": "not the password"])
            page = try await browser.get("/signin")
            #expect(page.text.contains("Thank you. One more step."))  // deferred: nothing said yet
            try await browser.submit(page, action: "/signin/send", ["method": "sms_otp"])
            page = try await browser.get("/signin")
            #expect(page.text.contains("We sent a code to"))
            let code = try api.lastCode(sentTo: "+33612345605")
            try await browser.submit(page, action: "/signin/proof", ["method": "sms_otp", "credential": code])
            page = try await browser.get("/signin")
            #expect(page.text.contains("something you entered does not match"))
            #expect(!page.text.lowercased().contains("password was"))
            #expect(page.text.contains("1 attempt left"))
            // The second failed round blocks.
            try await browser.submit(page, action: "/signin/proof", ["method": "password", "credential": "still wrong"])
            page = try await browser.get("/signin")
            try await browser.submit(page, action: "/signin/send", ["method": "sms_otp"])
            page = try await browser.get("/signin")
            let blocked = try await browser.submit(page, action: "/signin/proof", ["method": "sms_otp", "credential": "000000"])
            let final = blocked.status == 303 ? try await browser.get("/signin") : blocked
            #expect(final.text.contains("something you entered does not match") || final.text.contains("Access blocked"))
            page = try await browser.get("/signin")
            let again = try await browser.submit(page, action: "/signin/proof", ["method": "password", "credential": PartnerFixture.password])
            #expect(again.status == 403)
            #expect(again.text.contains("Access blocked"))
            #expect(again.text.contains("error=access_denied"))
        }
    }
}

/// The id_token as a partner reads it: its own type, nothing of ours.
struct PartnerIDToken: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var auth_time: Int
    var nonce: String?
    var acr: String
    var amr: [String]
    var roles: [String]?
    var permissions: [String]?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
