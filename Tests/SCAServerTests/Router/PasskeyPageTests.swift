import Foundation
import SCACore
import SCAEngine
import SCATestSupport
import Testing

/// "Sign in with a passkey" and "Confirm with a passkey" on the hosted pages,
/// through the real page routes with a software authenticator playing the browser's part of
/// /hosted/passkey.js: read the options from the form, sign, post the assertion.
@Suite("Passkeys on the hosted pages")
struct PasskeyPageTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        PasskeyRegistrationTests.configure(&configuration)
    }

    /// A user with password, phone and a passkey registered after password + SMS (a
    /// `settings_change` challenge through the API).
    /// - Parameter create: false when the user exists already (made by `PartnerFixture.tokens`).
    static func enrolled(
        _ api: APIClient, _ email: String, phone: String, _ authenticator: SoftwarePasskey, create: Bool = true
    ) async throws -> String? {
        let userID = create ? try await api.createUser(email, phone: phone) : nil
        let challenge = try await api.startChallenge(.settingsChange, email: email)
        #expect(try await api.prove(challenge.challengeId, .password, PartnerFixture.password).status == 200)
        #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
        let done = try await api.prove(challenge.challengeId, .smsOTP, try api.lastCode(sentTo: phone))
        let token = try #require(try done.decode(ProofResponse.self).accessToken)
        let options = try await PasskeyRegistrationTests.options(api, token: token)
        #expect(try await PasskeyRegistrationTests.register(api, authenticator.register(options), token: token).status == 201)
        return userID
    }

    /// The options of the page's passkey form (`data-options`, HTML-escaped JSON).
    static func options(in page: APIResponse) throws -> PasskeyRequestOptions {
        let html = page.text
        let start = try #require(html.range(of: "data-options=\""), "no passkey form")
        let end = try #require(html[start.upperBound...].firstIndex(of: "\""))
        let json = String(html[start.upperBound..<end])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try WireJSON.decoder().decode(PasskeyRequestOptions.self, from: Data(json.utf8))
    }

    static func assertionField(_ assertion: PasskeyAssertionCredential) throws -> String {
        String(decoding: try WireJSON.encoder().encode(assertion), as: UTF8.self)
    }

    @Test("the sign-in page offers a passkey (hidden without script), and a discoverable passkey signs in")
    func signInWithPasskey() async throws {
        try await TestServer(Self.configure).run { api in
            let authenticator = SoftwarePasskey()
            let userID = try await Self.enrolled(api, "page@example.com", phone: "+33612349001", authenticator)
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let (verifier, challenge) = PartnerFixture.pkce()
            let start = try await browser.get(partner.authorizePath(challenge: challenge))
            #expect(start.text.contains("<section class=\"factor\" data-passkey hidden>"))
            #expect(start.text.contains("<script src=\"/hosted/passkey.js\" defer></script>"))
            // Without script the e-mail form is all there is, as before.
            #expect(start.text.contains("action=\"/signin/email\""))

            let chosen = try await browser.submit(start, action: "/signin/passkey", [:])
            #expect(chosen.status == 303)
            let factors = try await browser.get("/signin")
            #expect(factors.text.contains("Sign in with a passkey") && !factors.text.contains("Signing in as"))
            #expect(factors.text.contains("One step: your passkey checks it is you."))
            let options = try Self.options(in: factors)
            #expect(options.allowCredentials.isEmpty && options.userVerification == "required")
            let done = try await browser.submit(
                factors, action: "/signin/proof",
                ["method": "passkey", "assertion": try Self.assertionField(authenticator.assert(challenge: options.challenge))])
            #expect(done.status == 303)
            let location = try #require(done.headers[.location])
            #expect(location.hasPrefix(partner.redirectURI + "?"))
            let exchanged = try await partner.exchange(code: try #require(PageBrowser.query(of: location)["code"]), verifier: verifier)
            #expect(exchanged.status == 200)
            let access = try #require(exchanged.json["access_token"] as? String)
            let introspected = try await api.introspect(access)
            #expect(introspected.sub == userID && introspected.amr == [.passkey, .passkeyUserVerified])
        }
    }

    @Test("a wrong or missing assertion on the page is a refused proof, said plainly")
    func refusedOnThePage() async throws {
        try await TestServer(Self.configure).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Self.enrolled(api, "oops@example.com", phone: "+33612349002", authenticator)
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            try await browser.submit(start, action: "/signin/email", ["email": "oops@example.com"])
            let factors = try await browser.get("/signin")
            // A known user: the passkey is offered beside the typed factors.
            #expect(factors.text.contains("Sign in with a passkey") && factors.text.contains("id=\"password\""))
            let empty = try await browser.submit(factors, action: "/signin/proof", ["method": "passkey", "assertion": ""])
            #expect(empty.status == 303)
            #expect(try await browser.get("/signin").text.contains("Please fill in the field"))
            let stale = authenticator.assert(challenge: Base64URL.encode(Array(repeating: 1, count: 32)))
            let refreshed = try await browser.get("/signin")
            try await browser.submit(refreshed, action: "/signin/proof", ["method": "passkey", "assertion": try Self.assertionField(stale)])
            let after = try await browser.get("/signin")
            #expect(after.text.contains("something you entered does not match"))
        }
    }

    @Test("the consent page confirms a payment with a passkey bound to its amount and payee")
    func confirmConsentWithPasskey() async throws {
        try await TestServer(Self.configure).run { api in
            let authenticator = SoftwarePasskey()
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "payer@example.com", phone: "+33612349003")
            api.clock.advance(by: 60)  // another SMS code for the same number
            _ = try await Self.enrolled(api, "payer@example.com", phone: "+33612349003", authenticator, create: false)
            let transaction = Transaction(
                amount: "80.00", currency: "EUR", payee: .init(name: "Alice Martin", iban: "FR7630006000011234567890189"))
            let created = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .payment, transaction: transaction, consentRedirectUrl: partner.consentRedirect, resourceId: "order-9"),
                accessToken: try #require(tokens["access_token"] as? String))
            let consent = try created.decode(ConsentResponse.self)
            let path = try #require(URLComponents(string: consent.consentUrl)?.path)
            let browser = PageBrowser(api: api)
            let page = try await browser.get(path)
            #expect(page.text.contains("Confirm with a passkey"))
            let options = try Self.options(in: page)
            #expect(options.allowCredentials.map(\.id) == [authenticator.credentialIDText])
            let done = try await browser.submit(
                page, action: "\(path)/proof",
                ["method": "passkey", "assertion": try Self.assertionField(authenticator.assert(challenge: options.challenge))])
            #expect(done.status == 303)
            let location = try #require(done.headers[.location])
            #expect(PageBrowser.query(of: location) == ["consentId": consent.consentId, "status": "Accepted", "resourceId": "order-9"])
        }
    }

    @Test("/hosted/passkey.js is served from our origin as script, and the pages allow only that")
    func scriptIsServed() async throws {
        try await TestServer(Self.configure).run { api in
            let script = try await api.send(.get, "/hosted/passkey.js")
            #expect(script.status == 200)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("navigator.credentials.get"))
            #expect(script.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
        }
    }
}
