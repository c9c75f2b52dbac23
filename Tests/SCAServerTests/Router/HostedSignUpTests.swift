import Foundation
import JWTKit
import SCACore
import Testing

/// "New here? Continue with your e-mail" on the hosted sign-in, through the real
/// page routes against the real SQLite store, like a browser without JavaScript.
@Suite("Hosted sign-up or in")
struct HostedSignUpTests {
    static let newPassword = "a brand new passphrase"

    /// The methods of the proof forms of a page, in order.
    static func proofMethods(_ page: APIResponse) -> [String] {
        page.text.components(separatedBy: "name=\"method\" value=\"").dropFirst()
            .compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    /// authorize → "New here?" → e-mail → the code page.
    static func toCodePage(_ browser: PageBrowser, _ partner: PartnerFixture, email: String, challenge: String) async throws -> APIResponse {
        let start = try await browser.get(partner.authorizePath(challenge: challenge))
        #expect(start.status == 200)
        #expect(start.text.contains("New here?"))
        #expect(start.text.contains("href=\"/signin/signup\""))
        let form = try await browser.get("/signin/signup")
        #expect(form.status == 200)
        #expect(form.text.contains("Create your account"))
        let sent = try await browser.submit(form, action: "/signin/signup", ["email": email])
        #expect(sent.status == 303)
        #expect(sent.headers[.location] == "/signin")
        return try await browser.get("/signin")
    }

    @Test("a new address: code → password page (policy errors shown) → password + a fresh e-mail code → the partner gets a code for the new user")
    func newAddressThroughThePages() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let (verifier, challenge) = PartnerFixture.pkce()
            let codePage = try await Self.toCodePage(browser, partner, email: "fresh@example.com", challenge: challenge)
            #expect(codePage.text.contains("We sent a code to"))
            // The e-mail code first, nothing else.
            #expect(Self.proofMethods(codePage) == ["email_otp", "email_otp"])
            #expect(!codePage.text.contains("name=\"credential\" type=\"password\""))

            let proven = try await browser.submit(
                codePage, action: "/signin/proof", ["method": "email_otp", "credential": try api.lastCode(sentTo: "fresh@example.com")])
            #expect(proven.status == 303)
            #expect(proven.headers[.location] == "/signin/password")
            #expect(proven.headers[.location]?.hasPrefix(PartnerFixture.redirectURI) == false, "an enrolment token is never granted")
            let user = try #require(try await api.services.users.find("fresh@example.com"))
            #expect(user.enrolledMethods == [.emailOTP])

            var passwordPage = try await browser.get("/signin/password")
            #expect(passwordPage.status == 200)
            #expect(passwordPage.text.contains("Choose your password"))
            #expect(passwordPage.text.contains("fresh@example.com"))
            // The password rules, on the page; nothing changed.
            let short = try await browser.submit(passwordPage, action: "/signin/password", ["password": "short", "confirm": "short"])
            #expect(short.headers[.location] == "/signin/password")
            passwordPage = try await browser.get("/signin/password")
            #expect(passwordPage.text.contains("it must have 8 to 1024 characters"))
            try await browser.submit(passwordPage, action: "/signin/password", ["password": Self.newPassword, "confirm": "something else"])
            passwordPage = try await browser.get("/signin/password")
            #expect(passwordPage.text.contains("not the same"))
            #expect(try await api.services.users.find("fresh@example.com")?.enrolledMethods == [.emailOTP])

            let set = try await browser.submit(
                passwordPage, action: "/signin/password", ["password": Self.newPassword, "confirm": Self.newPassword])
            #expect(set.headers[.location] == "/signin")
            #expect(try await api.services.users.find("fresh@example.com")?.enrolledMethods == [.password, .emailOTP])
            // The enrolment token was used: the password page is gone.
            #expect(try await browser.get("/signin/password").headers[.location] == "/signin")

            let finalPage = try await browser.get("/signin")
            #expect(finalPage.text.contains("Your password is set."))
            #expect(Self.proofMethods(finalPage) == ["email_otp", "email_otp"], "the password counts, the code is left")
            let done = try await browser.submit(
                finalPage, action: "/signin/proof", ["method": "email_otp", "credential": try api.lastCode(sentTo: "fresh@example.com")])
            #expect(done.status == 303)
            let location = try #require(done.headers[.location])
            #expect(location.hasPrefix(PartnerFixture.redirectURI + "?"))
            let query = PageBrowser.query(of: location)
            #expect(query["state"] == "st-123")

            let tokens = try await partner.exchange(code: try #require(query["code"]), verifier: verifier)
            #expect(tokens.status == 200)
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: String(decoding: try await api.send(.get, "/.well-known/jwks.json").body, as: UTF8.self))
            let idToken = try await keys.verify(try #require(tokens.json["id_token"] as? String), as: PartnerIDToken.self)
            #expect(idToken.sub.value == user.id)
            #expect(idToken.acr == TokenResponse.scaACR)
            #expect(Set(idToken.amr) == ["password", "email_otp"])
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft.event)
            #expect(events.filter { $0 == "signup.user_created" }.count == 1)
            #expect(events.filter { $0 == "signup.enrolled" }.count == 1)
        }
    }

    @Test("a known address through 'New here?' is a normal SCA sign-in, and nothing is created")
    func knownAddressSignsIn() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let partner = try await PartnerFixture.make(api)
            let userID = try await api.createUser("known@example.com", emailCodes: true)
            let browser = PageBrowser(api: api)
            let (verifier, challenge) = PartnerFixture.pkce()
            let codePage = try await Self.toCodePage(browser, partner, email: "known@example.com", challenge: challenge)
            #expect(Self.proofMethods(codePage) == ["email_otp", "email_otp"])
            let proven = try await browser.submit(
                codePage, action: "/signin/proof", ["method": "email_otp", "credential": try api.lastCode(sentTo: "known@example.com")])
            #expect(proven.headers[.location] == "/signin")
            // The second category, as on any sign-in.
            let next = try await browser.get("/signin")
            #expect(Self.proofMethods(next).contains("password"))
            let done = try await browser.submit(next, action: "/signin/proof", ["method": "password", "credential": PartnerFixture.password])
            let location = try #require(done.headers[.location])
            #expect(location.hasPrefix(PartnerFixture.redirectURI + "?"))
            let tokens = try await partner.exchange(code: try #require(PageBrowser.query(of: location)["code"]), verifier: verifier)
            let access = try #require(tokens.json["access_token"] as? String)
            let introspected = try await api.introspect(access, operation: .login)
            #expect(introspected.active && introspected.sub == userID)
            #expect(try await api.services.users.list().count == 1)
        }
    }

    @Test("after 'New here?' ran out of time, a plain sign-in from the e-mail page shows every factor again")
    func plainSignInAfterSignUp() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("known@example.com", emailCodes: true)
            let browser = PageBrowser(api: api)
            _ = try await Self.toCodePage(browser, partner, email: "known@example.com", challenge: PartnerFixture.pkce().challenge)
            api.clock.advance(by: TimeInterval(api.services.configuration.challengeLifetime + 1))
            let again = try await browser.get("/signin")
            #expect(again.text.contains("took too long"))
            try await browser.submit(again, action: "/signin/email", ["email": "known@example.com"])
            let factors = try await browser.get("/signin")
            #expect(Self.proofMethods(factors).contains("password"), "not the sign-up's e-mail code only")
        }
    }

    @Test("no oracle: a known, a new and a refused address get the same answers and the same code page")
    func sameAnswers() async throws {
        try await TestServer {
            $0.signUp.mode = .email
            $0.signUp.emailDomains = ["bank.example"]
        }.run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("known@bank.example", emailCodes: true)
            var pages: [[String]] = []
            for address in ["known@bank.example", "fresh@bank.example", "fresh@other.example"] {
                let browser = PageBrowser(api: api)
                let page = try await Self.toCodePage(browser, partner, email: address, challenge: PartnerFixture.pkce().challenge)
                #expect(page.status == 200)
                #expect(page.text.contains("We sent a code to"), "\(address)")
                pages.append(Self.proofMethods(page))
            }
            #expect(Set(pages.map { $0.joined(separator: ",") }).count == 1)
            // Only the allowed domain's code is sent; the refused one's is not, as for a decoy.
            let sent = try #require(api.services.outbox).messages().map(\.to)
            #expect(sent.contains("fresh@bank.example"))
            #expect(!sent.contains("fresh@other.example"))
        }
    }

    @Test("sign-up off: no 'New here?', and the sign-up pages refuse")
    func offRefuses() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(start.status == 200)
            #expect(!start.text.contains("New here?"))
            #expect(!start.text.contains("/signin/signup"))
            #expect(try await browser.get("/signin/signup").status == 404)
            #expect(try await browser.get("/signin/password").status == 404)
            let posted = try await browser.submit(
                start, action: "/signin/signup", ["email": "fresh@example.com"],
                csrf: try #require(PageBrowser.csrf(in: start, action: "/signin/email")))
            #expect(posted.status == 404)
            #expect(try await api.services.users.list().isEmpty)
            #expect(try #require(api.services.outbox).messages().isEmpty)
        }
    }

    @Test("the sign-up forms need their own CSRF token and a live visit")
    func csrf() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            // The e-mail form's token is not the sign-up form's.
            let wrong = try await browser.submit(
                start, action: "/signin/signup", ["email": "fresh@example.com"],
                csrf: try #require(PageBrowser.csrf(in: start, action: "/signin/email")))
            #expect(wrong.status == 403)
            #expect(wrong.text.contains("This sign-in has ended"))
            // No enrolment token in this visit: no password can be set.
            let form = try await browser.get("/signin/signup")
            let noToken = try await browser.submit(
                form, action: "/signin/password", ["password": Self.newPassword, "confirm": Self.newPassword],
                csrf: try #require(PageBrowser.csrf(in: form, action: "/signin/signup")))
            #expect(noToken.status == 403)
            #expect(noToken.text.contains("This sign-in has ended"))
            #expect(try await api.services.users.list().isEmpty)
            #expect(try #require(api.services.outbox).messages().isEmpty)
        }
    }
}
