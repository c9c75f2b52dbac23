import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import SCACore
import SCAEngine
import SCAServer
import SCATestSupport
import Testing

/// The hosted pages in a real headless Chromium, driven through chromedriver (W3C WebDriver).
/// Each test saves screenshots (420×900, a phone) under its temporary directory and copies
/// them to /tmp/h9-shots/ so a person can look at them.
@Suite("Hosted pages in a real browser", .serialized, .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct BrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/h9-shots")

    /// A live server on `http://localhost:PORT` with the injected clock, a partner client whose
    /// redirects come back to this server under another origin (`127.0.0.1`, so the pages'
    /// `form-action` must name it), and a browser.
    func withBrowser(
        _ name: String, _ customize: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (BrowserContext) async throws -> Void
    ) async throws {
        let port = try WebDriver.freePort()
        let server = try await TestServer {
            $0.publicBaseURL = "http://localhost:\(port)"
            $0.highValuePaymentThreshold = "5000.00"
            customize(&$0)
        }
        let directory = server.directory.appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: Self.shots, withIntermediateDirectories: true)
        let app = Application(router: server.services.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.test(.live) { client in
            // HummingbirdTesting picks its own port; the configured base only names URLs.
            let port = try #require(client.port)
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            let partner = try await PartnerFixture.make(
                api, redirectURI: "http://127.0.0.1:\(port)/health/live", consentRedirect: "http://127.0.0.1:\(port)/health/ready")
            let driver = try await WebDriver()
            do {
                try await driver.setWindow(width: 420, height: 900)
                try await body(BrowserContext(
                    api: api, partner: partner, driver: driver, base: "http://localhost:\(port)", port: port, name: name,
                    directory: directory, configuredBase: server.services.configuration.baseURL))
            } catch {
                await driver.quit()
                throw error
            }
            await driver.quit()
        }
        try? FileManager.default.removeItem(at: server.directory)
    }

    @Test("sign in with password and an SMS code; a partner with nothing of ours exchanges the code and checks the id_token")
    func signIn() async throws {
        try await withBrowser("signin") { context in
            let (api, driver, partner) = (context.api, context.driver, context.partner)
            let userID = try await api.createUser("browser@example.com", phone: "+33612340001")
            let (verifier, challenge) = PartnerFixture.pkce()
            try await driver.open(context.base + partner.authorizePath(challenge: challenge))
            try await context.shot("1-email")
            try await driver.type("browser@example.com", into: "#email")
            try await driver.click("form[action='/signin/email'] button")
            try await context.shot("2-factors")
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            #expect(try await driver.text().contains("We sent a code to +33*******01"))
            try await driver.type(try api.lastCode(sentTo: "+33612340001"), into: "#sms_otp")
            try await context.shot("3-sms-code")
            try await driver.click("form:has(#sms_otp) button")
            let landed = try await driver.currentURL()
            #expect(landed.hasPrefix(partner.redirectURI + "?"))
            let query = PageBrowser.query(of: landed)
            #expect(query["state"] == "st-123")

            // The partner: plain HTTP and jwt-kit only.
            let credentials = Data("\(partner.clientID):\(try #require(partner.clientSecret))".utf8).base64EncodedString()
            let form = [
                "grant_type=authorization_code", "code=\(try #require(query["code"]))",
                "redirect_uri=\(RedirectURIRules.formEncoded(partner.redirectURI))", "code_verifier=\(verifier)",
            ]
            let exchanged = try await PlainHTTP.request(
                "POST", URL(string: "\(context.base)/oauth2/token")!,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic \(credentials)"],
                body: Data(form.joined(separator: "&").utf8))
            #expect(exchanged.status == 200)
            let tokens = exchanged.json
            let discovery = try await PlainHTTP.request("GET", URL(string: "\(context.base)/.well-known/openid-configuration")!).json
            let jwksURL = try #require(discovery["jwks_uri"] as? String)
            let jwks = try await PlainHTTP.request("GET", URL(string: context.live(jwksURL))!).body
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: String(decoding: jwks, as: UTF8.self))
            let idToken = try await keys.verify(try #require(tokens["id_token"] as? String), as: PartnerIDToken.self)
            #expect(idToken.iss.value == discovery["issuer"] as? String)
            #expect(idToken.aud.value == [partner.clientID])
            #expect(idToken.sub.value == userID)
            #expect(idToken.nonce == "n-456")
            #expect(idToken.acr == "psd2.sca")
            try await context.finish()
        }
    }

    @Test(
        "cancel from every sign-in page that offers it: back to the partner with access_denied and the state",
        arguments: ["email", "factors", "signup"])
    func cancelFromEveryPage(page: String) async throws {
        try await withBrowser("cancel-\(page)", { $0.signUp.mode = .email }) { context in
            let (api, driver, partner) = (context.api, context.driver, context.partner)
            _ = try await api.createUser("cancel-\(page)@example.com", phone: "+33612340010")
            let (_, challenge) = PartnerFixture.pkce()
            try await driver.open(context.base + partner.authorizePath(challenge: challenge))
            switch page {
            case "factors":
                try await driver.type("cancel-\(page)@example.com", into: "#email")
                try await driver.click("form[action='/signin/email'] button")
                let factors = try await driver.text()
                #expect(factors.contains("Cancel and return to"), "\(factors)")
            case "signup":
                try await driver.open(context.base + "/signin/signup")
            default:
                break
            }
            try await context.shot("1-before")
            try await driver.click("form[action='/signin/cancel'] button")
            let landed = try await driver.waitForURL(prefix: partner.redirectURI)
            let query = PageBrowser.query(of: landed)
            #expect(query["error"] == "access_denied")
            #expect(query["state"] == "st-123")
            let after = try await driver.text()
            #expect(!after.contains("This sign-in has ended"))
        }
    }

    /// A consent for a payment, created by the partner with a token from a sign-in over HTTP.
    private func paymentConsent(_ context: BrowserContext, email: String, phone: String) async throws -> ConsentResponse {
        let tokens = try await context.partner.tokens(email: email, phone: phone)
        let created = try await context.partner.createConsent(
            CreateConsentRequest(
                operation: .payment,
                transaction: Transaction(
                    amount: "1250.00", currency: "EUR",
                    payee: .init(name: "Alice Martin", iban: "FR7630006000011234567890189"), reference: "Invoice 42"),
                consentRedirectUrl: context.partner.consentRedirect, resourceId: "order-7"),
            accessToken: try #require(tokens["access_token"] as? String))
        #expect(created.status == 201)
        return try created.decode(ConsentResponse.self)
    }

    @Test("accept a payment consent: the page says what the SMS says, and the partner gets Accepted")
    func acceptConsent() async throws {
        try await withBrowser("consent-accept") { context in
            let consent = try await paymentConsent(context, email: "accept@example.com", phone: "+33612340002")
            let driver = context.driver
            try await driver.open(context.live(consent.consentUrl))
            let text = try await driver.text()
            #expect(text.contains("Pay €1,250.00 to Alice Martin"))
            #expect(text.contains("FR76 3000 6000 0112 3456 7890 189"))
            try await context.shot("1-consent")
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            let sms = try #require(try context.api.services.outbox?.messages().last { $0.to == "+33612340002" })
            #expect(sms.text.contains("pay €1,250.00 to Alice Martin"))
            try await driver.type(String(sms.text.prefix(6)), into: "#sms_otp")
            try await context.shot("2-code")
            try await driver.click("form:has(#sms_otp) button")
            let landed = try await driver.currentURL()
            #expect(PageBrowser.query(of: landed) == ["consentId": consent.consentId, "status": "Accepted", "resourceId": "order-7"])
            try await context.finish()
        }
    }

    @Test("refuse a consent: CustomerRefused")
    func refuseConsent() async throws {
        try await withBrowser("consent-refuse") { context in
            let consent = try await paymentConsent(context, email: "refuse@example.com", phone: "+33612340003")
            try await context.driver.open(context.live(consent.consentUrl))
            try await context.driver.click("form[action$='/refuse'] button")
            let landed = try await context.driver.waitForURL(prefix: context.partner.consentRedirect)
            #expect(PageBrowser.query(of: landed)["status"] == "CustomerRefused")
            try await context.driver.open(context.live(consent.consentUrl))
            #expect(try await context.driver.text().contains("Refused"))
            try await context.shot("1-after-refusal")
            try await context.finish()
        }
    }

    @Test("a wrong code, then the right one")
    func wrongThenRightCode() async throws {
        try await withBrowser("consent-wrong-code") { context in
            let consent = try await paymentConsent(context, email: "typo@example.com", phone: "+33612340004")
            let driver = context.driver
            try await driver.open(context.live(consent.consentUrl))
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            try await driver.type("000000", into: "#sms_otp")
            try await driver.click("form:has(#sms_otp) button")
            let text = try await driver.text()
            #expect(text.contains("something you entered does not match"))
            #expect(!text.lowercased().contains("wrong code"))
            try await context.shot("1-wrong-code")
            // The round starts again: both factors, a fresh code.
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            try await driver.type(try context.api.lastCode(sentTo: "+33612340004"), into: "#sms_otp")
            try await driver.click("form:has(#sms_otp) button")
            #expect(PageBrowser.query(of: try await driver.currentURL())["status"] == "Accepted")
            try await context.finish()
        }
    }

    @Test("an expired consent: the page says so and nothing is approved")
    func expiredConsent() async throws {
        try await withBrowser("consent-expired") { context in
            let consent = try await paymentConsent(context, email: "slow@example.com", phone: "+33612340005")
            let driver = context.driver
            try await driver.open(context.live(consent.consentUrl))
            context.api.clock.advance(by: 901)
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            let text = try await driver.text()
            #expect(text.contains("This request has expired"))
            try await context.shot("1-expired")
            try await driver.click("a.button")
            #expect(PageBrowser.query(of: try await driver.currentURL())["status"] == "Expired")
            try await context.finish()
        }
    }
}

/// What a browser test works with.
struct BrowserContext: Sendable {
    let api: APIClient
    let partner: PartnerFixture
    let driver: WebDriver
    let base: String
    let port: Int
    let name: String
    let directory: URL
    let configuredBase: String

    /// `url` on the port the server really listens on.
    func live(_ url: String) -> String {
        url.hasPrefix(configuredBase) ? base + url.dropFirst(configuredBase.count) : url
    }

    /// Saves a screenshot under the test's directory and copies it to /tmp/h9-shots/.
    func shot(_ step: String) async throws {
        let file = directory.appendingPathComponent("\(name)-\(step).png")
        try await driver.screenshot(to: file)
        let copy = BrowserTests.shots.appendingPathComponent(file.lastPathComponent)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: file, to: copy)
    }

    /// The page the flow ended on.
    func finish() async throws { try await shot("end") }
}
