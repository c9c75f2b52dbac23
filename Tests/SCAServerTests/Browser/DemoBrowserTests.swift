import Foundation
import Hummingbird
import NIOCore
import SCACore
import SCAEngine
import SCAPartners
import SCAServer
import Testing

/// The walkthrough of `serve --demo` in a real headless Chromium: the server
/// as `serve` runs it (its own application on a port, the demo users and partner seeded), the
/// printed sign-in URL opened in the browser, the printed command run, and the consent approved.
/// It saves 1000×900 screenshots to /tmp/h9-shots/demo-*.png; the README's images are these.
@Suite("serve --demo walked through in a real browser", .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct DemoBrowserTests {
    @Test("sign in through the printed URL, create a consent with the printed command, approve it")
    func walkthrough() async throws {
        // The port is chosen before the server binds it (the demo's URLs name it), and under a
        // loaded full run another test may take it meanwhile: a new port then, up to three times.
        for attempt in 1...3 {
            do {
                return try await walkthrough(port: try WebDriver.freePort())
            } catch let error as IOError where error.errnoCode == EADDRINUSE && attempt < 3 {
                continue
            }
        }
    }

    func walkthrough(port: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = .insecureFastForTesting
        configuration.demo = true
        configuration.port = port
        // localhost, as a newcomer would type it; Chromium maps it to 127.0.0.1.
        configuration.publicBaseURL = "http://localhost:\(port)"
        let services = try await SCAServices.make(configuration: configuration)
        let users = try await DemoSeeder(users: services.users).seed()
        let savvy = try #require(users.first { $0.email == "savvy@example.com" })
        let instructions = try await services.registerDemoPartner()

        let (listening, ready) = AsyncStream<Void>.makeStream()
        let server = Task {
            // A port taken meanwhile (freePort picks one, the server binds it later) ends the
            // wait below with an error instead of leaving it waiting for ever.
            defer { ready.finish() }
            try await services.application { _ in ready.yield() }.runService()
        }
        defer { server.cancel() }
        var started = false
        for await _ in listening {
            started = true
            break
        }
        guard started else {
            _ = try await server.value
            throw WebDriverError(message: "the demo server stopped before it listened")
        }

        let shots = BrowserTests.shots
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let driver = try await WebDriver()
        func shot(_ name: String) async throws {
            try await driver.screenshot(to: shots.appendingPathComponent("demo-\(name).png"))
        }
        do {
            try await driver.setWindow(width: 1000, height: 900)
            try await driver.open(instructions.signInURL)
            #expect(try await driver.text().contains("\(DemoPartner.name) asks you to sign in"))
            try await driver.type(savvy.email, into: "#email")
            try await shot("1-signin")
            try await driver.click("form[action='/signin/email'] button")
            try await driver.type(savvy.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            let code = try #require(try services.outbox?.messages().last { $0.to == savvy.phone })
            try await driver.type(String(code.text.prefix(6)), into: "#sms_otp")
            try await shot("2-code")
            try await driver.click("form:has(#sms_otp) button")
            #expect(try await driver.currentURL().hasPrefix("http://localhost:\(port)/demo/callback?code="))
            let callback = try await driver.text()
            #expect(callback.contains("Signed in"))
            #expect(callback.contains("psd2.sca"))
            try await shot("3-callback")

            // The printed command, as printed.
            var output = try await PrintedCommand.run(instructions.consentCommand)
            if output == nil {
                output = try await PlainHTTP.request("POST", try #require(URL(string: "http://127.0.0.1:\(port)/demo/consent"))).body
            }
            let consent = try WireJSON.decoder().decode(ConsentResponse.self, from: try #require(output))
            try await driver.open(consent.consentUrl)
            #expect(try await driver.text().contains("Pay €125.00 to Alice Martin"))
            try await shot("4-consent")
            try await driver.type(savvy.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            let sms = try #require(try services.outbox?.messages().last { $0.to == savvy.phone })
            try await driver.type(String(sms.text.prefix(6)), into: "#sms_otp")
            try await driver.click("form:has(#sms_otp) button")
            let done = try await driver.text()
            #expect(done.contains("Accepted"))
            try await shot("5-consent-done")

            // A closed consent names the partner on the way back.
            try await driver.open(consent.consentUrl)
            #expect(try await driver.text().contains("Return to \(DemoPartner.name)"))
            try await shot("6-consent-closed")

            // The FAPI demo partner: its printed push command (where PyJWT is installed), the
            // payment on the sign-in pages, and its callback page with the next command.
            if let push = instructions.fapiPushCommand, FAPIScriptTests.pyJWT != nil {
                let authorizeURL = try await DemoFAPIPartnerTests.run(push, in: directory)
                try await driver.open(authorizeURL)
                #expect(try await driver.text().contains(DemoPartner.fapiName))
                try await driver.type(savvy.email, into: "#email")
                try await driver.click("form[action='/signin/email'] button")
                #expect(try await driver.text().contains("ACME Shop"))
                try await shot("7-fapi-payment")
                try await FAPIPaymentBrowserTests.expectNoAxeViolation(driver, page: "FAPI demo payment")
                try await driver.type(savvy.password, into: "#password")
                try await driver.click("form:has(#password) button")
                try await driver.click("form.send:has(input[value='sms_otp']) button")
                let fapiCode = try #require(try services.outbox?.messages().last { $0.to == savvy.phone })
                #expect(fapiCode.text.contains("€25.00 to ACME Shop"))
                try await driver.type(String(fapiCode.text.prefix(6)), into: "#sms_otp")
                try await driver.click("form:has(#sms_otp) button")
                #expect(try await driver.currentURL().hasPrefix("http://localhost:\(port)\(DemoPartner.fapiCallbackPath)?code="))
                let landed = try await driver.text()
                #expect(landed.contains("fapi_client.py token"))
                try await shot("8-fapi-callback")
                try await FAPIPaymentBrowserTests.expectNoAxeViolation(driver, page: "FAPI demo callback")
            }
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()
    }
}
