import Foundation
import Hummingbird
import SCAClient
import SCACore
import SCAServer
import Testing

/// "Approve on your phone" in a real headless Chromium: the browser chooses it on
/// the consent page and waits on the waiting page while the test answers from the SDK; the
/// page goes on by itself (its script's long poll), to the partner after an approval and to
/// "Declined on your phone" after a `not_me`. Screenshots go under the test's directory and
/// to /tmp/phone-shots/.
@Suite(
    "Approve on your phone in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct ConsentPhoneBrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/phone-shots")

    @Test("the page waits for the phone and continues by itself: approved to the partner, not_me to a declined page")
    func waitsAndContinues() async throws {
        let port = try WebDriver.freePort()
        let base = "http://127.0.0.1:\(port)"
        let server = try await TestServer {
            PartnerConsentTests.configure(&$0)
            $0.publicBaseURL = base
        }
        let directory = server.directory.appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: Self.shots, withIntermediateDirectories: true)
        try await server.runListening(port: port, base: base) { api in
            try await Self.scenario(api, base: base, directory: directory)
        }
    }

    static func scenario(_ api: APIClient, base: String, directory: URL) async throws {
        let email = "phone.browser@example.com"
        let partner = try await PartnerFixture.make(api, redirectURI: "\(base)/health/live", consentRedirect: "\(base)/health/ready")
        let tokens = try await partner.tokens(email: email, phone: "+33612349101")
        let accessToken = try #require(tokens["access_token"] as? String)
        let userID = try #require(try await api.services.store.user(email: email)?.id)
        let phone = try await SDKPhone.activate(
            api, url: try #require(URL(string: base)), userID: userID, directory: URL(fileURLWithPath: api.services.configuration.dataDirectory))
        func consent(_ resource: String) async throws -> ConsentResponse {
            let created = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .payment, transaction: PartnerConsentTests.payment, consentRedirectUrl: partner.consentRedirect,
                    resourceId: resource),
                accessToken: accessToken)
            #expect(created.status == 201)
            return try created.decode(ConsentResponse.self)
        }

        var fourth: ConsentResponse?
        let driver = try await WebDriver()
        func shot(_ step: String) async throws {
            let file = directory.appendingPathComponent("phone-\(step).png")
            try await driver.screenshot(to: file)
            let copy = shots.appendingPathComponent(file.lastPathComponent)
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: file, to: copy)
        }
        /// The page's text once it contains `words` (the page moves on by itself), or after 15 s.
        func waitForText(_ words: String) async throws -> String {
            for _ in 0..<150 {
                let text = (try? await driver.text()) ?? ""
                if text.contains(words) { return text }
                try await Task.sleep(for: .milliseconds(100))
            }
            return try await driver.text()
        }
        do {
            try await driver.setWindow(width: 420, height: 900)

            // 1. Approved on the phone: the waiting page goes on to the partner by itself.
            let first = try await consent("order-11")
            try await driver.open(first.consentUrl)
            let offer = try await driver.text()
            #expect(offer.contains("Approve on your phone") && offer.contains("Pixel of Alice"))
            try await shot("1-offer")
            try await driver.click("form[action='/consents/\(first.consentId)/phone'] button")
            let waiting = try await driver.text()
            #expect(waiting.contains("Waiting for your phone"), "\(waiting)")
            #expect(waiting.contains("€1,250.00") && waiting.contains("Alice Martin"))
            let operation = try await phone.pending()
            #expect(waiting.contains(try #require(operation.bindingMessage)))
            try await shot("2-waiting")
            // The lower half: the other ways out.
            try await driver.setWindow(width: 420, height: 1300)
            try await shot("2b-waiting-full")
            try await driver.setWindow(width: 420, height: 900)
            // The browser is left alone: the test answers from the SDK only.
            try await phone.client.approve(operation, using: ApprovingCollector())
            let landed = try await waitForURL(driver, prefix: partner.consentRedirect + "?")
            #expect(PageBrowser.query(of: landed) == ["consentId": first.consentId, "status": "Accepted", "resourceId": "order-11"])
            try await shot("3-approved")
            #expect(try await api.services.store.consent(id: first.consentId)?.status == .accepted)

            // 2. Declined on the phone as not me: the page says so by itself.
            let second = try await consent("order-12")
            try await driver.open(second.consentUrl)
            try await driver.click("form[action='/consents/\(second.consentId)/phone'] button")
            #expect(try await driver.text().contains("Waiting for your phone"))
            try await phone.client.reject(try await phone.pending(), reason: .notMe)
            let declined = try await waitForText("Declined on your phone")
            #expect(declined.contains("Declined on your phone"), "\(declined)")
            #expect(declined.contains("Return to Shop") && !declined.contains("Confirm another way"))
            try await shot("4-declined")
            #expect(try await api.services.store.consent(id: second.consentId)?.status == .customerRefused)

            // (Made now: the partner's token idles out with the clock advanced below.)
            fourth = try await consent("order-14")

            // 3. The phone does not answer in time: the page says so by itself and offers the other ways.
            let third = try await consent("order-13")
            try await driver.open(third.consentUrl)
            try await driver.click("form[action='/consents/\(third.consentId)/phone'] button")
            #expect(try await driver.text().contains("Waiting for your phone"))
            api.clock.advance(by: 301)
            let expired = try await waitForText("did not answer in time")
            #expect(expired.contains("Send it to my phone again") && expired.contains("Confirm another way"), "\(expired)")
            try await shot("5-expired")
            // Another way: the factor forms, on a challenge of the page's own.
            try await driver.click("a[href='/consents/\(third.consentId)']")
            let factors = try await driver.text()
            #expect(factors.contains("Your password") && factors.contains("Approve on your phone"), "\(factors)")
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()

        // 4. A browser without script: the waiting page reloads itself (its noscript refresh)
        // and goes on to the partner after the phone approves.
        let plain = try await WebDriver(extraArguments: ["--blink-settings=scriptEnabled=false"])
        do {
            let fourth = try #require(fourth)
            try await plain.setWindow(width: 420, height: 900)
            try await plain.open(fourth.consentUrl)
            try await plain.click("form[action='/consents/\(fourth.consentId)/phone'] button")
            #expect(try await plain.text().contains("This page checks again every 5 seconds"))
            let file = directory.appendingPathComponent("phone-6-waiting-noscript.png")
            try await plain.screenshot(to: file)
            try? FileManager.default.removeItem(at: shots.appendingPathComponent(file.lastPathComponent))
            try FileManager.default.copyItem(at: file, to: shots.appendingPathComponent(file.lastPathComponent))
            try await phone.client.approve(try await phone.pending(), using: ApprovingCollector())
            let landed = try await waitForURL(plain, prefix: partner.consentRedirect + "?")
            #expect(PageBrowser.query(of: landed)["status"] == "Accepted", "\(landed)")
            #expect(try await api.services.store.consent(id: fourth.consentId)?.status == .accepted)
        } catch {
            await plain.quit()
            throw error
        }
        await plain.quit()
    }

    /// The current URL once it starts with `prefix`, or whatever it is after 15 seconds.
    static func waitForURL(_ driver: WebDriver, prefix: String) async throws -> String {
        for _ in 0..<150 {
            let url = try await driver.currentURL()
            if url.hasPrefix(prefix) { return url }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await driver.currentURL()
    }
}
