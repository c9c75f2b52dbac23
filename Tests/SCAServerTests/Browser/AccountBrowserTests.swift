import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCAServer
import Testing

/// The user's own account page in a real headless Chromium: a user signs in with password and
/// SMS, adds a passkey with the virtual authenticator after a confirmation of its own, ends
/// the session of another device, takes a partner's access back and signs out. Every page at
/// 1280 and 420 px passes axe-core; the screenshots are in /tmp/account-shots (a few are in
/// docs/images). It also changes the e-mail address (confirmed by a code sent to the new one)
/// and sets up an authenticator app from the QR code the page draws.
@Suite(
    "The account page in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct AccountBrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/account-shots")
    static let widths = [(width: 1_280, height: 1_900), (width: 420, height: 3_400)]

    @Test("a user signs in, binds a passkey, ends another session and revokes a partner's access")
    func ownAccount() async throws {
        try await TestServer.runForBrowser(screenshots: Self.shots) {
            // Five SMS confirmations of one number within minutes: more than the default budget.
            $0.rateLimits.sendsPerDestination = [RateWindow(count: 50, seconds: 600)]
            $0.rateLimits.sendsPerUser = [RateWindow(count: 50, seconds: 600)]
        } _: { api, base in
            try await Self.scenario(api, base: base)
        }
    }

    static func scenario(_ api: APIClient, base: String) async throws {
        let email = "ana.lopez@example.com"
        let phone = "+34600000101"
        let partner = try await PartnerFixture.make(api)
        let partnerTokens = try await partner.tokens(email: email, phone: phone)
        let delegated = try #require(partnerTokens["access_token"] as? String)
        // Another device's session: the app on the user's tablet.
        let tablet = try #require(try await AccountOverviewTests.authenticate(api, email: email, phone: phone).accessToken)
        #expect(try await api.send(.get, "/v1/me/overview", bearer: tablet).status == 200)
        // The tablet is a bound device too.
        let owner = try #require(try await api.services.store.user(email: email))
        var tabletKeys = TestDevice()
        let activation = try await api.services.devices.issueActivationCode(for: owner.id).activationCode
        tabletKeys.deviceID = try await api.post("/v1/devices", try tabletKeys.registration(code: activation))
            .decode(RegisteredDeviceResponse.self).deviceId
        let tabletDevice = tabletKeys.deviceID
        // A partner's token opens nothing here: the page takes no bearer token, only its own sign-in.
        let withToken = try await api.client.execute(
            uri: "/account", method: .get, headers: [.authorization: "Bearer \(delegated)"], body: nil)
        #expect(String(buffer: withToken.body).contains("/account/signin/email"))

        let driver = try await WebDriver()
        func look(_ name: String) async throws {
            for size in widths {
                try await driver.setWindow(width: size.width, height: size.height)
                let layout = try #require(try await driver.execute(LanguageBrowserTests.overflowScript) as? [String: Any])
                let beyond = try await driver.execute(ConsoleBrowserTests.beyondScript) as? [String] ?? []
                #expect((layout["beyond"] as? Int ?? 1) <= 0, "\(name) \(size.width): page wider than the window: \(beyond)")
                let file = shots.appendingPathComponent("account-\(name)-\(size.width).png")
                try? FileManager.default.removeItem(at: file)
                try await driver.screenshot(to: file)
            }
            try await driver.setWindow(width: 1_280, height: 1_000)
            try await FAPIPaymentBrowserTests.expectNoAxeViolation(driver, page: name)
        }
        /// Password, then an SMS code, on the factor forms the page shows.
        func passwordAndSMS() async throws {
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send button")
            try await driver.type(try api.lastCode(sentTo: phone), into: "#sms_otp")
            try await driver.click("form:has(#sms_otp) button")
        }
        do {
            try await driver.setWindow(width: 1_280, height: 1_000)
            let authenticator = try await driver.addVirtualAuthenticator()

            // Sign in with password and SMS.
            try await driver.open("\(base)/account")
            #expect(try await driver.text().contains("Sign in to your account"))
            try await look("signin")
            try await driver.type(email, into: "#email")
            try await driver.click("form[action='/account/signin/email'] button")
            try await passwordAndSMS()
            var page = try await driver.text()
            #expect(page.contains("Your account"))
            #expect(page.contains(email))
            #expect(page.contains("Shop"))
            #expect(page.contains("Signed in"))
            try await look("overview")

            // A passkey, after a confirmation of its own (a settings_change challenge).
            try await driver.click("form[action='/account/passkeys/add'] button")
            #expect(try await driver.text().contains("Confirm it is you before a passkey is added"))
            try await look("confirm")
            try await passwordAndSMS()
            _ = try await driver.waitForURL(prefix: "\(base)/account/passkeys/new")
            try await look("passkey")
            try await driver.type("My passkey on this laptop", into: "#passkey-name")
            try await driver.click("form[data-passkey-create-form] button")
            _ = try await driver.waitForURL(prefix: "\(base)/account")
            page = try await driver.text()
            #expect(page.contains("The passkey is added"), "\(page)")
            #expect(page.contains("My passkey on this laptop"))
            #expect(try await driver.virtualCredentials(authenticator).count == 1)
            let user = try #require(try await api.services.store.user(email: email))
            #expect(try await api.services.store.passkeys(userID: user.id).count == 1)

            // End the tablet's session.
            let tabletSession = try #require(try jwtClaims(tablet)["sid"] as? String)
            try await driver.click("form[action='/account/sessions/\(tabletSession)/end'] button")
            #expect(try await driver.text().contains("The session has ended"))
            #expect(try await api.send(.get, "/v1/me/overview", bearer: tablet).status == 401)

            // Take the partner's access back.
            try await driver.click("form[action='/account/partners/\(partner.clientID)/revoke'] button")
            page = try await driver.text()
            #expect(page.contains("The partner’s access is taken back"))
            #expect(page.contains("No partner can act for you now"))
            #expect(try await api.introspect(delegated).active == false)
            #expect(page.contains("Passkey added"))
            #expect(page.contains("Partner access taken back"))
            try await look("after")

            // A new e-mail address: its own confirmation, then a code sent to the new address
            // before it counts; the old address is told once it does.
            let newEmail = "ana.nueva@example.com"
            try await driver.click("form[action='/account/settings/email/start'] button")
            #expect(try await driver.text().contains("Confirm it is you before your e-mail address is changed"))
            try await passwordAndSMS()
            _ = try await driver.waitForURL(prefix: "\(base)/account/settings/email")
            try await look("email")
            try await driver.type(newEmail, into: "#field-value")
            try await driver.click("form[action='/account/settings/email'] button")
            page = try await driver.text()
            #expect(page.contains("We sent a code to a****@example.com"), "\(page)")
            #expect(page.contains("Waiting for the code sent to a****@example.com"))
            #expect(try await api.services.store.user(email: email) != nil)
            #expect(try SecurityAlertTests.texts(api, to: email).allSatisfy { !$0.contains("e-mail address of your account was changed") })
            try await look("pending")
            try await driver.type(try api.lastCode(sentTo: newEmail), into: "#code-email")
            try await driver.click("form[action='/account/contact/email/confirm'] button")
            page = try await driver.text()
            #expect(page.contains("Your e-mail address is changed"), "\(page)")
            #expect(try await api.services.store.user(email: newEmail)?.id == user.id)
            #expect(try SecurityAlertTests.texts(api, to: email).contains { $0.contains("e-mail address of your account was changed") })

            // An authenticator app: its own confirmation, a QR code drawn on the server, and the
            // app's first code before it counts.
            try await driver.click("form[action='/account/settings/totp/start'] button")
            try await passwordAndSMS()
            _ = try await driver.waitForURL(prefix: "\(base)/account/settings/totp")
            #expect(try await driver.execute("return document.querySelectorAll('figure.qr svg path').length") as? Int == 1)
            try await look("totp")
            let secret = try #require(try await driver.execute("return document.querySelector('code.secret').textContent") as? String)
            let app = try #require(TOTP.parse(secret.filter { !$0.isWhitespace }))
            try await driver.type(app.code(at: api.clock.now()), into: "#field-code")
            try await driver.click("form[action='/account/settings/totp'] button")
            #expect(try await driver.text().contains("Your authenticator app is set up"))
            #expect(try await api.services.store.user(id: user.id)?.sealedTOTPSeed != nil)

            // Renaming the tablet's device.
            try await driver.type("Ana’s tablet", into: "#rename-\(tabletDevice)")
            try await driver.click("form[action='/account/devices/\(tabletDevice)/rename'] button")
            #expect(try await driver.text().contains("The device is renamed"))
            #expect(try await api.services.store.device(id: tabletDevice)?.name == "Ana’s tablet")

            // A recovery sheet from the page: its own confirmation, shown once.
            try await driver.click("form[action='/account/settings/recoverySheet/start'] button")
            try await passwordAndSMS()
            _ = try await driver.waitForURL(prefix: "\(base)/account/settings/recoverySheet")
            #expect(try await driver.execute("return document.querySelectorAll('ol.puks li').length") as? Int == 10)
            try await look("sheet")
            try await driver.open("\(base)/account/settings/recoverySheet")
            page = try await driver.text()
            #expect(page.contains("Your account"))
            #expect(page.contains("10 PUKs left"))

            try await driver.click("form[action='/account/signout'] button")
            #expect(try await driver.text().contains("You are signed out"))
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()
    }
}
