import Foundation
import Hummingbird
import SCACore
import SCAServer
import Testing

/// The operator console in a real headless Chromium: an operator signs in with a passkey
/// (the virtual authenticator), finds a customer blocked by five failed rounds, reads why,
/// unblocks them after a step-up with the same passkey, removes the customer's lost phone, and
/// the customer then signs in while the phone's cold start is refused. Every page at 1280 and
/// 420 px passes axe-core; the screenshots are docs/images/console-*.png.
@Suite(
    "The operator console in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct ConsoleBrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/console-shots")
    static let widths = [(width: 1_280, height: 1_500), (width: 420, height: 2_000)]

    /// The elements that reach past the window's right edge, outside a scrolling frame.
    static let beyondScript = """
        var found = [];
        document.querySelectorAll("body *").forEach(function (element) {
          if (element.closest(".table")) { return; }
          var box = element.getBoundingClientRect();
          if (box.right > window.innerWidth + 1) { found.push(element.tagName + "." + element.className + " " + Math.round(box.right)); }
        });
        return found.slice(0, 12);
        """

    /// Every width's screenshot of the page the browser shows (`console-<name>-<width>.png`),
    /// each checked to fit its window, then an axe-core run.
    static func look(_ driver: WebDriver, _ name: String) async throws {
        for size in widths {
            try await driver.setWindow(width: size.width, height: size.height)
            let layout = try #require(try await driver.execute(LanguageBrowserTests.overflowScript) as? [String: Any])
            let beyond = try await driver.execute(beyondScript) as? [String] ?? []
            #expect((layout["beyond"] as? Int ?? 1) <= 0, "\(name) \(size.width): page wider than the window: \(beyond)")
            #expect(beyond.isEmpty, "\(name) \(size.width): \(beyond)")
            let file = shots.appendingPathComponent("console-\(name)-\(size.width).png")
            try? FileManager.default.removeItem(at: file)
            try await driver.screenshot(to: file)
        }
        try await FAPIPaymentBrowserTests.expectNoAxeViolation(driver, page: name)
    }

    /// Registers the operator's passkey on a new virtual authenticator (with a `settings_change`
    /// token of theirs) and signs in to the console with it alone, landing on the users.
    /// - Returns: the authenticator.
    @discardableResult
    static func signInWithPasskey(_ driver: WebDriver, base: String, settingsToken: String) async throws -> String {
        try await driver.setWindow(width: 1_280, height: 1_000)
        let authenticator = try await driver.addVirtualAuthenticator()
        try await driver.open("\(base)/health/live")
        let registered = try #require(
            try await driver.executeAsync(PasskeyBrowserTests.registrationScript, [settingsToken]) as? [String: Any])
        #expect(registered["status"] as? Int == 201, "\(registered)")
        try await driver.open("\(base)/console")
        try await driver.click("form[action='/console/signin/passkey'] button")
        try await driver.click("form[data-passkey-form] button")
        #expect(try await driver.waitForURL(prefix: "\(base)/console/users") == "\(base)/console/users")
        return authenticator
    }

    @Test("an operator signs in with a passkey, unblocks a customer after a step-up and removes their lost phone")
    func operatorDay() async throws {
        try await TestServer.runForBrowser(screenshots: Self.shots) {
            ConsoleTests.configure(&$0)
        } _: { api, base in
            try await Self.scenario(api, base: base)
        }
    }

    static func scenario(_ api: APIClient, base: String) async throws {
        let operatorEmail = "olivia.operator@bank.example"
        let operatorPhone = "+41790000101"
        _ = try await ConsoleTests.makeOperator(api, email: operatorEmail, phone: operatorPhone, roles: ["supervisor"])
        let customerEmail = "carla.meier@example.com"
        let customer = try await api.createUser(customerEmail, phone: "+41790000102")
        var lostPhone = TestDevice()
        try await api.activate(&lostPhone, userID: customer)
        _ = try await ConsoleTests.apiSignIn(api, email: customerEmail, phone: "+41790000102")
        try await ConsoleTests.lock(api, email: customerEmail)

        // The operator's passkey, made after their own password + SMS.
        let settingsToken = try await PasskeyBrowserTests.settingsChangeToken(api, email: operatorEmail, phone: operatorPhone)

        let driver = try await WebDriver()
        func look(_ name: String) async throws { try await Self.look(driver, name) }
        do {
            try await driver.setWindow(width: 1_280, height: 1_000)
            try await driver.open("\(base)/console")
            #expect(try await driver.text().contains("Sign in to the operator console"))
            try await look("signin")

            // Sign in with the passkey alone.
            let authenticator = try await Self.signInWithPasskey(driver, base: base, settingsToken: settingsToken)
            #expect(try await driver.virtualCredentials(authenticator).count == 1)
            #expect(try await driver.text().contains(operatorEmail))

            // Find the customer by the start of their address.
            try await driver.type("carla.m", into: "#q")
            try await driver.click("form.search button")
            #expect(try await driver.text().contains("Blocked until"))
            try await look("users")
            try await driver.click("a[href='/console/users/\(customer)']")
            let page = try await driver.text()
            #expect(page.contains("Failed attempt") && page.contains("Access blocked"))
            #expect(page.contains("Test phone"))
            try await look("user")

            // Six minutes on, with the page in use: the unblock asks for a step-up.
            api.clock.advance(by: 240)
            try await driver.open("\(base)/console/users/\(customer)")
            api.clock.advance(by: 120)
            try await driver.open("\(base)/console/users/\(customer)")
            try await driver.click("form[action='/console/users/\(customer)/unblock'] button")
            #expect(try await driver.text().contains("more than five minutes old"))
            try await look("step-up")
            try await driver.click("form[data-passkey-form] button")
            _ = try await driver.waitForURL(prefix: "\(base)/console/users/\(customer)")
            #expect(try await driver.text().contains("Confirmed."))
            try await driver.click("form[action='/console/users/\(customer)/unblock'] button")
            #expect(try await driver.text().contains("The user is unblocked"))

            // The lost phone goes.
            try await driver.click("form[action='/console/users/\(customer)/devices/\(lostPhone.deviceID)/remove'] button")
            #expect(try await driver.text().contains("The device is removed"))
            try await look("user-after")
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()

        // The customer signs in again; the removed phone's cold start is refused.
        _ = try await ConsoleTests.apiSignIn(api, email: customerEmail, phone: "+41790000102")
        let coldStart = try await api.startChallenge(.login, userID: customer, device: lostPhone)
        #expect(coldStart.status >= 400)
    }
}
