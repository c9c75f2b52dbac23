import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAServer
import Testing

/// "New here? Continue with your phone number" (issue 17) in a real headless Chromium: a new
/// number gets an SMS code, sets a password, proves a fresh SMS code and lands at the partner
/// with a code. Screenshots (420×900, a phone) go to /tmp/signup-shots/.
@Suite("Hosted sign-up by phone in a real browser", .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct SignUpPhoneBrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/signup-shots")

    @Test("a new number signs up through the pages and the partner gets a code for the new user")
    func newUser() async throws {
        let port = try WebDriver.freePort()
        let server = try await TestServer {
            $0.publicBaseURL = "http://localhost:\(port)"
            $0.signUp.mode = .emailAndPhone
        }
        defer { try? FileManager.default.removeItem(at: server.directory) }
        try FileManager.default.createDirectory(at: Self.shots, withIntermediateDirectories: true)
        let app = Application(router: server.services.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            // The partner's redirect comes back to this server under another origin, so the
            // pages' form-action must name it.
            let partner = try await PartnerFixture.make(
                api, redirectURI: "http://127.0.0.1:\(port)/health/live", consentRedirect: "http://127.0.0.1:\(port)/health/ready")
            let driver = try await WebDriver()
            func shot(_ step: String) async throws {
                try await driver.screenshot(to: Self.shots.appendingPathComponent("signup-phone-\(step).png"))
            }
            do {
                try await driver.setWindow(width: 420, height: 900)
                let phone = "+33612345699"
                try await driver.open("http://localhost:\(port)" + partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
                let signIn = try await driver.text()
                #expect(signIn.contains("New here? Continue with your e-mail or Continue with your phone number"))
                try await shot("1-signin")
                try await driver.click("a[href='/signin/signup/phone']")
                #expect(try await driver.text().contains("Phone number, with its country code"))
                try await driver.type("+33 6 12 34 56 99", into: "#phone")
                try await shot("2-signup-phone")
                try await driver.click("form[action='/signin/signup/phone'] button")
                #expect(try await driver.text().contains("We sent a code to +33*******99"))
                try await driver.type(try api.lastCode(sentTo: phone), into: "#sms_otp")
                try await shot("3-code")
                try await driver.click("form:has(#sms_otp) button")
                #expect(try await driver.currentURL().hasSuffix("/signin/password"))
                #expect(try await driver.text().contains("Your phone number is confirmed"))
                try await driver.type(HostedSignUpTests.newPassword, into: "#password")
                try await driver.type(HostedSignUpTests.newPassword, into: "#confirm")
                try await shot("4-password")
                try await driver.click("form[action='/signin/password'] button")
                #expect(try await driver.text().contains("Your password is set."))
                try await driver.type(try api.lastCode(sentTo: phone), into: "#sms_otp")
                try await shot("5-fresh-code")
                try await driver.click("form:has(#sms_otp) button")
                let landed = try await driver.currentURL()
                #expect(landed.hasPrefix(partner.redirectURI + "?"))
                #expect(PageBrowser.query(of: landed)["code"] != nil)
                try await shot("6-landed")
                let user = try #require(try await server.services.store.user(loginPhone: phone))
                #expect(user.enrolledMethods == [.password, .smsOTP])
            } catch {
                await driver.quit()
                throw error
            }
            await driver.quit()
        }
    }
}
