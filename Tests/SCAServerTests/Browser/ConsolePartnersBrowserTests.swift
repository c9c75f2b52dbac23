import Foundation
import Hummingbird
import SCACore
import SCAServer
import Testing

/// The console's newer pages in a real headless Chromium: the live overview, the partners
/// page and a partner's failed deliveries with their retry, and the user page's partner access,
/// approved payment and authenticator app, each taken back with a click. Every page at 1280
/// and 420 px passes axe-core and fits its window; the screenshots are docs/images/console-*.png.
@Suite(
    "The console's partners, overview and user actions in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct ConsolePartnersBrowserTests {
    @Test("an operator reads the live overview, sends a partner's given-up message again, and takes a customer's app and partner access back")
    func partnersAndOverview() async throws {
        try await TestServer.runForBrowser(screenshots: ConsoleBrowserTests.shots) {
            ConsolePartnersTests.configure(&$0)
            $0.roles["fraud"] = ["risk:read", "users:read"]
        } _: { api, base in
            try await Self.scenario(api, base: base)
        }
    }

    static func scenario(_ api: APIClient, base: String) async throws {
        let operatorEmail = "petra.partners@bank.example"
        let operatorPhone = "+41790000111"
        _ = try await ConsoleTests.makeOperator(
            api, email: operatorEmail, phone: operatorPhone, roles: ["supervisor", "partners", "fraud"])
        // Three quarters of an hour of traffic, so the overview's lines have a shape: a sign-in
        // every three minutes, and a wrong password every seven, the fifth of which blocks.
        let regulars = [("anna.berg@example.com", "+41790000121"), ("ben.roth@example.com", "+41790000122"),
            ("chloe.favre@example.com", "+41790000123")]
        for (email, phone) in regulars { _ = try await api.createUser(email, phone: phone) }
        _ = try await api.createUser("otto@example.com", phone: "+41790000113")
        for minute in 0..<45 {
            if minute % 3 == 0 {
                let (email, phone) = regulars[(minute / 3) % regulars.count]
                _ = try await ConsoleTests.apiSignIn(api, email: email, phone: phone)
            }
            if minute % 7 == 0, minute <= 28 {
                let attempt = try await api.startChallenge(email: "otto@example.com")
                try await api.prove(attempt.challengeId, .password, "wrong password")
            }
            api.clock.advance(by: 60)
        }
        // A second partner, without a webhook.
        #expect(
            try await api.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(name: "Budget Planner", redirectUris: ["https://planner.example/callback"]), admin: true
            ).status == 201)

        // A customer with an authenticator app, a partner sign-in and an approved payment.
        let customerEmail = "nora.keller@example.com"
        let customerPhone = "+41790000112"
        let customer = try await api.createUser(customerEmail, phone: customerPhone)
        _ = try await api.enrollTOTP(customer)
        let partner = try await PartnerFixture.make(api)
        let (_, challenge) = PartnerFixture.pkce()
        _ = try await partner.signIn(PageBrowser(api: api), email: customerEmail, phone: customerPhone, challenge: challenge)
        let payment = try await api.startChallenge(
            .payment, email: customerEmail,
            transaction: Transaction(amount: "249.90", currency: "EUR", payee: .init(name: "Velo Shop GmbH", iban: "DE89370400440532013000")))
        #expect(try await api.prove(payment.challengeId, .password, ConsoleTests.password).status == 200)
        #expect(try await api.sendCode(payment.challengeId, .smsOTP).status == 202)
        #expect(try await api.prove(payment.challengeId, .smsOTP, try api.lastCode(sentTo: customerPhone)).status == 200)
        #expect(
            try await api.send(
                .put, "/admin/v1/clients/\(partner.clientID)/webhook",
                body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: "http://127.0.0.1:9/hooks")), admin: true
            ).status == 200)
        try await ConsolePartnersTests.seedDeliveries(api, clientID: partner.clientID)
        let settingsToken = try await PasskeyBrowserTests.settingsChangeToken(api, email: operatorEmail, phone: operatorPhone)

        let driver = try await WebDriver()
        func look(_ name: String) async throws { try await ConsoleBrowserTests.look(driver, name) }
        do {
            try await ConsoleBrowserTests.signInWithPasskey(driver, base: base, settingsToken: settingsToken)

            // The live overview draws what /metrics counts.
            try await driver.click("a[href='/console/overview']")
            let drawn = try await driver.execute(
                "return document.querySelector(\"svg[data-series='lockouts']\").getAttribute('data-total')") as? String
            let metrics = String(decoding: try await api.send(.get, "/metrics").body, as: UTF8.self)
            #expect(drawn == String(ConsoleOverviewTests.metric(metrics, "sca_lockouts_total")))
            #expect(drawn == "1")
            try await look("overview")

            // The partners page, the partner, and its given-up message sent again.
            try await driver.click("a[href='/console/partners']")
            #expect(try await driver.text().contains("1 given up"))
            try await look("partners")
            try await driver.click("a[href='/console/partners/\(partner.clientID)']")
            #expect(try await driver.text().contains("evt_given_up"))
            try await look("partner")
            try await driver.click("form[action='/console/partners/\(partner.clientID)/deliveries/evt_given_up/retry'] button")
            #expect(try await driver.text().contains("The message is sent again"))
            #expect(try await api.services.engine.store.webhookDelivery(id: "evt_given_up")?.status == .pending)

            // The customer: the payment on the timeline, then the app and the partner taken back.
            try await driver.open("\(base)/console/users/\(customer)")
            let page = try await driver.text()
            #expect(page.contains("249.90 EUR to Velo Shop GmbH"))
            #expect(page.contains(partner.clientID) && page.contains("Shop"))
            try await look("user-partners")
            try await driver.click("form[action='/console/users/\(customer)/totp/remove'] button")
            #expect(try await driver.text().contains("The authenticator app is removed"))
            try await driver.click("form[action='/console/users/\(customer)/partners/\(partner.clientID)/revoke'] button")
            #expect(try await driver.text().contains("access is taken back"))
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()
        #expect(try await api.services.engine.store.user(id: customer)?.sealedTOTPSeed == nil)
        let sessions = try await api.services.engine.store.holdings(userID: customer).sessions
        #expect(sessions.filter { $0.clientID == partner.clientID && $0.revokedAt == nil }.isEmpty)
    }
}
