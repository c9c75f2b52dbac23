import Foundation
import HTTPTypes
import SCACore
import Testing

/// The whole FAPI 2.0 payment in a real headless Chromium: the partner pushes the payment as
/// `authorization_details` with a signed assertion, the browser opens the `request_uri`, the
/// sign-in page shows the payment as the consent page shows one, the user proves it with a
/// password and an SMS code, and the partner exchanges the code with an assertion and a DPoP
/// proof. Screenshots go to /tmp/h9-shots/fapi-payment-*.png.
@Suite(
    "A FAPI 2.0 payment in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct FAPIPaymentBrowserTests {
    @Test("PAR with a payment, the page that shows it, SMS, and the code exchanged with private_key_jwt and DPoP")
    func payment() async throws {
        try await BrowserTests().withBrowser("fapi-payment") { context in
            let (api, driver) = (context.api, context.driver)
            let client = try await KeyClient.make(
                api, authorizationDetailsTypes: ["payment_initiation"], callback: "http://127.0.0.1:\(context.port)/health/live")
            _ = try await api.createUser("fapi.browser@example.com", phone: "+33612340621")
            let (verifier, challenge) = PartnerFixture.pkce("b")
            let pushed = try await client.push(
                challenge: challenge, extra: ["authorization_details": AuthorizationDetailsTests.payment])
            let uri = try PushedAuthorizationTests.requestURI(pushed)

            try await driver.open(context.base + client.authorizePath(requestURI: uri))
            let first = try await driver.text()
            #expect(first.contains("Open Banking Partner asks you to approve:"))
            #expect(first.contains("Pay €250.00 to Acme Supplies"), "\(first)")
            #expect(first.contains("FR76 3000 6000 0112 3456 7890 189"))
            try await context.shot("1-email")
            try await Self.expectNoAxeViolation(driver, page: "email")
            try await driver.type("fapi.browser@example.com", into: "#email")
            try await driver.click("form[action='/signin/email'] button")
            try await context.shot("2-factors")
            try await Self.expectNoAxeViolation(driver, page: "factors")
            try await driver.type(PartnerFixture.password, into: "#password")
            try await driver.click("form:has(#password) button")
            try await driver.click("form.send:has(input[value='sms_otp']) button")
            let code = try api.lastCode(sentTo: "+33612340621")
            let message = try #require(try api.services.outbox?.messages().last { $0.to == "+33612340621" })
            #expect(message.text.contains("250.00") && message.text.contains("Acme Supplies"))
            try await driver.type(code, into: "#sms_otp")
            try await context.shot("3-sms-code")
            try await driver.click("form:has(#sms_otp) button")
            let landed = try await driver.waitForURL(prefix: client.callback)
            let query = PageBrowser.query(of: landed)
            #expect(query["state"] == "st-fapi")

            let tokens = try await client.token(
                ["grant_type": "authorization_code", "code": try #require(query["code"]), "redirect_uri": client.callback,
                 "code_verifier": verifier],
                dpop: DPoPKey())
            #expect(tokens.status == 200, "\(tokens.text)")
            #expect(tokens.json["token_type"] as? String == "DPoP")
            let details = try #require(tokens.json["authorization_details"] as? [[String: Any]])
            #expect(details.first?["creditorName"] as? String == "Acme Supplies")
            let consumed = try await api.introspect(
                try #require(tokens.json["access_token"] as? String), operation: .payment,
                transaction: AuthorizationDetailsTests.transaction, consume: true)
            #expect(consumed.active)
            try await context.finish()
        }
    }

    /// axe-core's rules on the page shown, when `.ci/run` installed it.
    static func expectNoAxeViolation(_ driver: WebDriver, page: String) async throws {
        guard let axe = LanguageBrowserTests.axeScript else { return }
        try await driver.execute(axe)
        let result = try await driver.executeAsync("""
            var done = arguments[arguments.length - 1];
            axe.run(document).then(function (result) {
              done(result.violations.map(function (v) { return v.id + ": " + v.help + " (" + v.nodes.length + ")"; }));
            }, function (error) { done(["axe failed: " + error]); });
            """)
        let violations = try #require(result as? [String])
        #expect(violations.isEmpty, "\(page): \(violations)")
    }
}
