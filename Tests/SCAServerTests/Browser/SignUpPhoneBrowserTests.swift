import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import Testing

/// "New here? Continue with your phone number" in a real headless Chromium: a new
/// number gets an SMS code, sets a password, proves a fresh SMS code and lands at the partner
/// with a code. Screenshots (420×900, a phone) go to /tmp/signup-shots/.
@Suite("Hosted sign-up by phone in a real browser", .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct SignUpPhoneBrowserTests {
    @Test("a new number signs up through the pages and the partner gets a code for the new user")
    func newUser() async throws {
        try await SignUpBrowserTests.withPartnerPages(.emailAndPhone, shots: "signup-phone") { driver, shot, origin, partner, api in
            let phone = "+33612345699"
            try await driver.open(origin + partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
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
            let user = try #require(try await api.services.store.user(loginPhone: phone))
            #expect(user.enrolledMethods == [.password, .smsOTP])
        }
    }
}
