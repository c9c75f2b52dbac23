import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAServer
import Testing

/// "New here? Continue with your e-mail" in a real headless Chromium: a new address
/// gets a code, sets a password, proves a fresh code and lands at the partner with a code.
/// Screenshots (420×900, a phone) go to /tmp/signup-shots/.
@Suite("Hosted sign-up in a real browser", .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct SignUpBrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/signup-shots")

    @Test("a new address signs up through the pages and the partner gets a code for the new user")
    func newUser() async throws {
        try await Self.withPartnerPages(.email, shots: "signup") { driver, shot, origin, partner, api in
            let email = "newcomer@example.com"
            try await driver.open(origin + partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(try await driver.text().contains("New here? Continue with your e-mail"))
            try await shot("1-signin")
            try await driver.click("p.signup a")
            #expect(try await driver.text().contains("Create your account"))
            try await driver.type(email, into: "#email")
            try await shot("2-signup-email")
            try await driver.click("form[action='/signin/signup'] button")
            #expect(try await driver.text().contains("We sent a code to"))
            try await driver.type(try api.lastCode(sentTo: email), into: "#email_otp")
            try await shot("3-code")
            try await driver.click("form:has(#email_otp) button")
            #expect(try await driver.currentURL().hasSuffix("/signin/password"))
            #expect(try await driver.text().contains("Choose your password"))
            // The rules, on the page.
            try await driver.type("short", into: "#password")
            try await driver.type("short", into: "#confirm")
            try await driver.click("form[action='/signin/password'] button")
            #expect(try await driver.text().contains("it must have 8 to 1024 characters"))
            try await shot("4-password-refused")
            try await driver.type(HostedSignUpTests.newPassword, into: "#password")
            try await driver.type(HostedSignUpTests.newPassword, into: "#confirm")
            try await shot("5-password")
            try await driver.click("form[action='/signin/password'] button")
            #expect(try await driver.text().contains("Your password is set."))
            try await driver.type(try api.lastCode(sentTo: email), into: "#email_otp")
            try await shot("6-fresh-code")
            try await driver.click("form:has(#email_otp) button")
            let landed = try await driver.currentURL()
            #expect(landed.hasPrefix(partner.redirectURI + "?"))
            #expect(PageBrowser.query(of: landed)["code"] != nil)
            try await shot("7-landed")
            let user = try #require(try await api.services.users.find(email))
            #expect(user.enrolledMethods == [.password, .emailOTP])
        }
    }

    /// A live server with sign-up `mode` on, a partner whose redirects come back to it (under
    /// another origin, so the pages' form-action must name it), and Chromium at a phone's size
    /// on it; the browser quits whatever `body` throws. `shot` saves `<prefix>-<step>.png`.
    static func withPartnerPages(
        _ mode: SignUpMode, shots prefix: String,
        _ body: @escaping @Sendable (WebDriver, _ shot: @Sendable (String) async throws -> Void, _ origin: String, PartnerFixture, APIClient)
            async throws -> Void
    ) async throws {
        let port = try WebDriver.freePort()
        let server = try await TestServer {
            $0.publicBaseURL = "http://localhost:\(port)"
            $0.signUp.mode = mode
        }
        defer { try? FileManager.default.removeItem(at: server.directory) }
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let app = Application(router: server.services.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            let partner = try await PartnerFixture.make(
                api, redirectURI: "http://127.0.0.1:\(port)/health/live", consentRedirect: "http://127.0.0.1:\(port)/health/ready")
            let driver = try await WebDriver()
            do {
                try await driver.setWindow(width: 420, height: 900)
                let shot: @Sendable (String) async throws -> Void = { step in try await driver.screenshot(to: shots.appendingPathComponent("\(prefix)-\(step).png")) }
                try await body(driver, shot, "http://localhost:\(port)", partner, api)
            } catch {
                await driver.quit()
                throw error
            }
            await driver.quit()
        }
    }
}
