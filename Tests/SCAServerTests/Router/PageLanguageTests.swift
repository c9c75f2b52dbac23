import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import SCALocalization
import Testing

/// Which language a hosted page speaks, and that a page in any language names a payment
/// exactly: `ui_locales` over `Accept-Language` over the default, the switch on every page
/// keeping the visit where it was, and the consent page's amount read back digit for digit.
@Suite("Hosted pages in the reader's language")
struct PageLanguageTests {
    /// The amount is large enough that every language groups it.
    static let payment = Transaction(
        amount: "12345678.90", currency: "EUR", payee: .init(name: "Zoë Müller-Lüdenscheidt", iban: "DE89370400440532013000"),
        reference: "Rechnung 42")

    /// The languages and a sentence each page shows in it.
    static let signInTitle = [
        "en": "<h1>Sign in</h1>", "fr": "<h1>Connexion</h1>", "de": "<h1>Anmelden</h1>",
        "es": "<h1>Iniciar sesión</h1>", "it": "<h1>Accedi</h1>", "nl": "<h1>Inloggen</h1>",
    ]

    /// The decimal separator each language writes amounts with.
    static let decimalSeparator: [String: Character] = ["en": ".", "fr": ",", "de": ",", "es": ",", "it": ",", "nl": ","]

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.highValuePaymentThreshold = "100000000.00"
    }

    /// What `<html lang>` says.
    static func language(of page: APIResponse) -> String? {
        guard let start = page.text.range(of: "<html lang=\""), let end = page.text[start.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        return String(page.text[start.upperBound..<end])
    }

    @Test("ui_locales beats Accept-Language, which beats the default; a language not shipped falls back to the default")
    func negotiation() async throws {
        try await TestServer { $0.defaultLanguage = .dutch }.run { api in
            let partner = try await PartnerFixture.make(api)
            let path = partner.authorizePath(challenge: PartnerFixture.pkce().challenge)

            let german = try await PageBrowser(api: api, acceptLanguage: "fr-FR,fr;q=0.9").get(path + "&ui_locales=de-AT%20fr")
            #expect(german.status == 200)
            #expect(Self.language(of: german) == "de")
            #expect(german.headers[.contentLanguage] == "de")
            #expect(german.text.contains(try #require(Self.signInTitle["de"])))

            let french = try await PageBrowser(api: api, acceptLanguage: "pt-BR, fr;q=0.8, en;q=0.5").get(path)
            #expect(Self.language(of: french) == "fr")
            #expect(french.text.contains(try #require(Self.signInTitle["fr"])))

            // Neither names a shipped language: the configured default.
            let fallback = try await PageBrowser(api: api, acceptLanguage: "pt-BR, ja").get(path + "&ui_locales=tlh")
            #expect(Self.language(of: fallback) == "nl")
            #expect(fallback.text.contains(try #require(Self.signInTitle["nl"])))

            // A malformed list is the partner's mistake, told to its redirect URI.
            let malformed = try await PageBrowser(api: api).get(path + "&ui_locales=%3Cscript%3E")
            #expect(malformed.status == 303)
            #expect(PageBrowser.query(of: try #require(malformed.headers[.location]))["error"] == "invalid_request")
        }
    }

    @Test("the language switch keeps the visit: the same step, the same account, the code already sent, then the sign-in ends at the client")
    func switchKeepsTheVisit() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("switch@example.com", phone: "+33612345690")
            let browser = PageBrowser(api: api, acceptLanguage: "en")
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            // Every language is offered, each named in itself, the page's own marked.
            for name in ["English", "Français", "Deutsch", "Español", "Italiano", "Nederlands"] {
                #expect(start.text.contains(">\(name)</a>"), "\(name)")
            }
            #expect(start.text.contains("aria-current=\"true\">English</a>"))
            try await browser.submit(start, action: "/signin/email", ["email": "switch@example.com"])
            var page = try await browser.get("/signin")
            try await browser.submit(page, action: "/signin/proof", ["method": "password", "credential": PartnerFixture.password])
            page = try await browser.get("/signin")
            try await browser.submit(page, action: "/signin/send", ["method": "sms_otp"])
            let code = try api.lastCode(sentTo: "+33612345690")

            // The switch's link, as the page gives it, back to the same step.
            let english = try await browser.get("/signin")
            #expect(english.text.contains("Step 2 of 2"))
            let link = try #require(Self.link(in: english, named: "Deutsch"))
            let switched = try await browser.get(link)
            #expect(switched.status == 303)
            #expect(switched.headers[.location] == "/signin")
            #expect(browser.cookies["sca_lang"] == "de")

            let german = try await browser.get("/signin")
            #expect(Self.language(of: german) == "de")
            #expect(german.text.contains("Schritt 2 von 2"))
            #expect(german.text.contains("switch@example.com"))
            #expect(german.text.contains("aria-current=\"true\">Deutsch</a>"))
            // The code sent before the switch still ends the sign-in.
            let done = try await browser.submit(german, action: "/signin/proof", ["method": "sms_otp", "credential": code])
            #expect(done.status == 303)
            #expect(PageBrowser.query(of: try #require(done.headers[.location]))["code"] != nil)
        }
    }

    @Test("the switch refuses a language not shipped and any page that is not ours, and sets nothing")
    func switchRefusesElsewhere() async throws {
        try await TestServer().run { api in
            for query in [
                "lang=de&next=https%3A%2F%2Fevil.example%2F", "lang=de&next=%2F%2Fevil.example%2F", "lang=de&next=%2Fv1%2Fme",
                "lang=de&next=%2Fsignin%0D%0ASet-Cookie%3A%20x%3Dy", "lang=de&next=%2Fsignin%5C..%5Cevil", "lang=de&next=%2Fsignin%2F..%2Fv1%2Fme", "lang=de&next=%2Fconsents%2F%2Fx", "lang=pt&next=%2Fsignin",
                "lang=de", "next=%2Fsignin",
            ] {
                let browser = PageBrowser(api: api)
                let response = try await browser.get("/hosted/language?\(query)")
                #expect(response.status == 400, "\(query)")
                #expect(response.headers[.location] == nil, "\(query)")
                #expect(browser.cookies["sca_lang"] == nil, "\(query)")
            }
        }
    }

    @Test("the consent page in each language names the exact amount and payee: the digits read back are the payment's")
    func consentPageInEveryLanguage() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "zoe@example.com", phone: "+33612345691")
            let accessToken = try #require(tokens["access_token"] as? String)
            for (language, separator) in Self.decimalSeparator.sorted(by: { $0.key < $1.key }) {
                let created = try await partner.createConsent(
                    CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: PartnerFixture.consentRedirect),
                    accessToken: accessToken)
                let consent = try created.decode(ConsentResponse.self)
                let page = try await PageBrowser(api: api).get("/consents/\(consent.consentId)?ui_locales=\(language)")
                #expect(page.status == 200)
                #expect(Self.language(of: page) == language)
                let shown = try #require(Self.element(in: page, opening: "<dd class=\"amount\">"), "\(language)")
                let digits = String(shown.compactMap { $0.isASCII && $0.isNumber ? $0 : $0 == separator ? "." : nil })
                #expect(digits == Self.payment.amount, "\(language): \(shown)")
                #expect(shown.contains("€"), "\(language): \(shown)")
                // The headline names the same amount and the payee as written.
                let headline = try #require(Self.element(in: page, opening: "<h1>"))
                #expect(headline.contains(shown) && headline.contains("Zoë Müller-Lüdenscheidt"), "\(language): \(headline)")
                #expect(page.text.contains("DE89 3704 0044 0532 0130 00"), "\(language)")
            }
        }
    }

    @Test("the consent page speaks its user's stored language over Accept-Language; ui_locales on the link and the switch outrank it")
    func consentPageStoredLanguage() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "stored@example.com", phone: "+33612345692")
            let userID = try #require(try await api.services.store.user(email: "stored@example.com")?.id)
            #expect(try await LocalizedMessageTests.setProfile(api, userID, ProfileRequest(locale: "it")).status == 200)
            let consent = try await partner.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: try #require(tokens["access_token"] as? String)
            ).decode(ConsentResponse.self)
            let path = "/consents/\(consent.consentId)"

            let browser = PageBrowser(api: api, acceptLanguage: "fr")
            #expect(Self.language(of: try await browser.get(path)) == "it")
            // The link's ui_locales is kept by the visit, over the stored language.
            #expect(Self.language(of: try await browser.get(path + "?ui_locales=es")) == "es")
            #expect(Self.language(of: try await browser.get(path)) == "es")
            // The switch outranks both.
            let page = try await browser.get(path)
            #expect(try await browser.get(try #require(Self.link(in: page, named: "Nederlands"))).headers[.location] == path)
            #expect(Self.language(of: try await browser.get(path)) == "nl")
        }
    }

    @Test("a sign-up on the pages stores the language the page was read in, and its code comes in that language")
    func signUpStoresPageLanguage() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api, acceptLanguage: "en")
            _ = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge) + "&ui_locales=es")
            let form = try await browser.get("/signin/signup")
            #expect(Self.language(of: form) == "es")
            try await browser.submit(form, action: "/signin/signup", ["email": "nuevo@example.com"])
            let message = try await LocalizedMessageTests.lastMessage(api, to: "nuevo@example.com")
            #expect(message.contains("código"), "\(message)")
            let page = try await browser.get("/signin")
            let proved = try await browser.submit(
                page, action: "/signin/proof", ["method": "email_otp", "credential": try api.lastCode(sentTo: "nuevo@example.com")])
            #expect(proved.headers[.location] == "/signin/password")
            #expect(try await api.services.store.user(email: "nuevo@example.com")?.profile.locale == "es")
        }
    }

    @Test("with the profile scope the id_token and userinfo carry the user's locale and zoneinfo; without it, neither")
    func profileClaims() async throws {
        try await TestServer().run { api in
            for scopes in [["openid", "profile"], ["openid"]] {
                let partner = try await PartnerFixture.make(api, scopes: scopes)
                let email = "claims-\(scopes.count)@example.com"
                let phone = "+3361234569\(scopes.count + 3)"
                let userID = try await api.createUser(email, phone: phone)
                _ = try await LocalizedMessageTests.setProfile(api, userID, ProfileRequest(locale: "de-AT", zoneinfo: "Europe/Vienna"))
                let (verifier, challenge) = PartnerFixture.pkce()
                let query = try await partner.signIn(
                    PageBrowser(api: api), email: email, phone: phone, challenge: challenge, scope: scopes.joined(separator: " "))
                let tokens = try await partner.exchange(code: try #require(query["code"]), verifier: verifier).json
                let idToken = try #require(tokens["id_token"] as? String)
                let claims = try #require(Self.payload(of: idToken))
                let info = try await api.send(.get, "/oauth2/userinfo", bearer: try #require(tokens["access_token"] as? String)).json
                if scopes.contains("profile") {
                    #expect(claims["locale"] as? String == "de" && claims["zoneinfo"] as? String == "Europe/Vienna")
                    #expect(info["locale"] as? String == "de" && info["zoneinfo"] as? String == "Europe/Vienna")
                } else {
                    #expect(claims["locale"] == nil && claims["zoneinfo"] == nil && info["locale"] == nil)
                }
            }
            let discovery = try await api.send(.get, "/.well-known/openid-configuration", bearer: nil).json
            #expect(discovery["ui_locales_supported"] as? [String] == ["en", "fr", "de", "es", "it", "nl"])
            #expect((discovery["scopes_supported"] as? [String])?.contains("profile") == true)
        }
    }

    /// The claims of a JWS, unverified (the token endpoint handed it straight over).
    static func payload(of jws: String) -> [String: Any]? {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let data = Base64URL.decode(String(parts[1])) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any]
    }

    /// The text of the first element opened by `opening`.
    static func element(in page: APIResponse, opening: String) -> String? {
        guard let start = page.text.range(of: opening), let end = page.text[start.upperBound...].range(of: "</") else { return nil }
        return String(page.text[start.upperBound..<end.lowerBound])
    }

    /// The `href` of the link whose text is `name`, unescaped as a browser reads it.
    static func link(in page: APIResponse, named name: String) -> String? {
        guard let text = page.text.range(of: ">\(name)</a>") else { return nil }
        let before = page.text[..<text.lowerBound]
        guard let href = before.range(of: "href=\"", options: .backwards),
            let end = before[href.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(before[href.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }
}
