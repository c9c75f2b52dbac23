import Foundation
import SCACore
import Testing

/// "New here? Continue with your phone number" on the hosted sign-in, through the
/// real page routes against the real SQLite store, like a browser without JavaScript.
@Suite("Hosted sign-up or in by phone")
struct HostedSignUpPhoneTests {
    static let phone = "+33612345678"

    /// authorize → "Continue with your phone number" → number → the code page.
    static func toCodePage(_ browser: PageBrowser, _ partner: PartnerFixture, phone: String, challenge: String) async throws -> APIResponse {
        let start = try await browser.get(partner.authorizePath(challenge: challenge))
        #expect(start.status == 200)
        #expect(start.text.contains("Continue with your phone number"))
        #expect(start.text.contains("href=\"/signin/signup/phone\""))
        let form = try await browser.get("/signin/signup/phone")
        #expect(form.status == 200)
        #expect(form.text.contains("Phone number, with its country code"))
        let sent = try await browser.submit(form, action: "/signin/signup/phone", ["phone": phone])
        #expect(sent.status == 303)
        #expect(sent.headers[.location] == "/signin")
        return try await browser.get("/signin")
    }

    @Test("a new number: SMS code → password page → password + a fresh SMS code → the partner gets a code for the new user")
    func newNumberThroughThePages() async throws {
        try await TestServer { $0.signUp.mode = .phone }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let (verifier, challenge) = PartnerFixture.pkce()
            let codePage = try await Self.toCodePage(browser, partner, phone: "+33 6 12 34 56 78", challenge: challenge)
            #expect(codePage.text.contains("We sent a code to +33*******78"))
            #expect(HostedSignUpTests.proofMethods(codePage) == ["sms_otp", "sms_otp"])

            let proven = try await browser.submit(
                codePage, action: "/signin/proof", ["method": "sms_otp", "credential": try api.lastCode(sentTo: Self.phone)])
            #expect(proven.headers[.location] == "/signin/password")
            let user = try #require(try await api.services.store.user(loginPhone: Self.phone))
            #expect(user.enrolledMethods == [.smsOTP])

            let passwordPage = try await browser.get("/signin/password")
            #expect(passwordPage.text.contains("Your phone number is confirmed"))
            #expect(passwordPage.text.contains("+33 6 12 34 56 78"))
            let set = try await browser.submit(
                passwordPage, action: "/signin/password",
                ["password": HostedSignUpTests.newPassword, "confirm": HostedSignUpTests.newPassword])
            #expect(set.headers[.location] == "/signin")
            #expect(try await api.services.store.user(loginPhone: Self.phone)?.enrolledMethods == [.password, .smsOTP])

            let finalPage = try await browser.get("/signin")
            #expect(finalPage.text.contains("Your password is set."))
            #expect(HostedSignUpTests.proofMethods(finalPage) == ["sms_otp", "sms_otp"], "the password counts, the SMS code is left")
            let done = try await browser.submit(
                finalPage, action: "/signin/proof", ["method": "sms_otp", "credential": try api.lastCode(sentTo: Self.phone)])
            let location = try #require(done.headers[.location])
            #expect(location.hasPrefix(PartnerFixture.redirectURI + "?"))
            let tokens = try await partner.exchange(code: try #require(PageBrowser.query(of: location)["code"]), verifier: verifier)
            let access = try #require(tokens.json["access_token"] as? String)
            let introspected = try await api.introspect(access, operation: .login)
            #expect(introspected.active && introspected.sub == user.id)
            #expect(introspected.acr == TokenResponse.scaACR)
        }
    }

    @Test("both ways on: the sign-in page offers the e-mail and the phone; a bad number is said on the phone page")
    func bothWaysAndBadNumber() async throws {
        try await TestServer { $0.signUp.mode = .emailAndPhone }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(start.text.contains("href=\"/signin/signup\""))
            #expect(start.text.contains("href=\"/signin/signup/phone\""))
            let form = try await browser.get("/signin/signup/phone")
            let refused = try await browser.submit(form, action: "/signin/signup/phone", ["phone": "06 12 34 56 78"])
            #expect(refused.headers[.location] == "/signin/signup/phone")
            let again = try await browser.get("/signin/signup/phone")
            #expect(again.text.contains("with its country code, for example"))
            #expect(try await api.services.users.list().isEmpty)
            #expect(try #require(api.services.outbox).messages().isEmpty)
        }
    }

    @Test("e-mail only: no phone link, and the phone pages refuse")
    func emailOnlyRefusesPhone() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(start.text.contains("Continue with your e-mail"))
            #expect(!start.text.contains("phone number"))
            #expect(try await browser.get("/signin/signup/phone").status == 404)
            let posted = try await browser.submit(
                start, action: "/signin/signup/phone", ["phone": Self.phone],
                csrf: try #require(PageBrowser.csrf(in: start, action: "/signin/email")))
            #expect(posted.status == 404)
            #expect(try #require(api.services.outbox).messages().isEmpty)
        }
    }
}
