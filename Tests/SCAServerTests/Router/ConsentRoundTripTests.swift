import Foundation
import SCACore
import SCAEngine
import Testing

/// How often the hosted consent page calls the store: counted through the store's own tracing
/// on a real server over a real database, so what is counted is what reaches the database.
/// The page's proof is held against the JSON API's proof of the same factor by the same user
/// on the same payment: the page may add one write, which decides the consent.
@Suite("Consent page: store round trips")
struct ConsentRoundTripTests {
    /// The most a showing of the consent page may cost, first visit included.
    static let showingLimit = 3

    @Test("showing a consent takes at most 3 store round trips; a proof on the page those of the JSON API's proof and one more")
    func sqlite() async throws {
        let calls = StoreRoundTrips()
        try await TestServer(tracing: calls.recorder, PartnerConsentTests.configure).run { api in
            try await Self.measure(api, calls: calls, writesKnown: true)
        }
    }

    @Test(
        "the same on PostgreSQL",
        .enabled(if: ServerPair.databaseURL != nil, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func postgres() async throws {
        let calls = StoreRoundTrips()
        try await TestServer.runOnPostgres(PartnerConsentTests.configure, tracing: calls.recorder) { api in
            // A statement there may write (a proof's commit in one statement): only the counts
            // compare.
            try await Self.measure(api, calls: calls, writesKnown: false)
        }
    }

    /// A settings change and a payment consent shown; the payment proven on the page with a
    /// password and an SMS code, and the same steps by the same user through the JSON API.
    /// - Parameter writesKnown: the store's spans tell reads from writes (SQLite's do).
    static func measure(_ api: APIClient, calls: StoreRoundTrips, writesKnown: Bool) async throws {
        let phone = "+33612345677"
        let partner = try await PartnerFixture.make(api)
        let tokens = try await partner.tokens(email: "trips@example.com", phone: phone)
        let accessToken = try #require(tokens["access_token"] as? String)
        let browser = PageBrowser(api: api)

        // A settings change: nothing but the page's own work.
        let change = try await partner.createConsent(
            CreateConsentRequest(
                operation: .settingsChange, description: "Change your phone number", consentRedirectUrl: PartnerFixture.consentRedirect),
            accessToken: accessToken
        ).decode(ConsentResponse.self)
        let (changePage, changeShowing) = try await calls.during { try await browser.get("/consents/\(change.consentId)") }
        #expect(changePage.status == 200)
        #expect(changeShowing.count <= showingLimit, "the first showing of a settings change: \(changeShowing)")

        // A payment: its first showing opens its challenge, which monitoring looks at first.
        let consent = try await partner.paymentConsent(accessToken: accessToken)
        let path = "/consents/\(consent.consentId)"
        let (firstPage, firstShowing) = try await calls.during { try await browser.get(path) }
        #expect(firstPage.status == 200)
        let (page, showing) = try await calls.during { try await browser.get(path) }
        #expect(page.status == 200)
        #expect(showing.count <= showingLimit, "a later showing: \(showing)")

        let (afterPassword, pagePassword) = try await calls.during {
            try await browser.submit(page, action: "\(path)/proof", ["method": "password", "credential": PartnerFixture.password])
        }
        #expect(afterPassword.status == 303)
        let withCode = try await browser.get(path)
        try await browser.submit(withCode, action: "\(path)/send", ["method": "sms_otp"])
        let codePage = try await browser.get(path)
        let (accepted, pageCode) = try await calls.during {
            try await browser.submit(codePage, action: "\(path)/proof", ["method": "sms_otp", "credential": try api.lastCode(sentTo: phone)])
        }
        #expect(PageBrowser.query(of: try #require(accepted.headers[.location]))["status"] == "Accepted")

        // The same through the JSON API.
        let (opened, apiOpening) = try await calls.during {
            try await api.post(
                "/v1/challenges",
                CreateChallengeRequest(
                    operation: .payment, user: UserReference(email: "trips@example.com"), transaction: PartnerConsentTests.payment))
        }
        let challenge = try opened.decode(ChallengeResponse.self)
        let (password, apiPassword) = try await calls.during {
            try await api.prove(challenge.challengeId, .password, PartnerFixture.password)
        }
        #expect(password.status == 200)
        #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
        let code = try api.lastCode(sentTo: phone)
        let (completed, apiCode) = try await calls.during { try await api.prove(challenge.challengeId, .smsOTP, code) }
        #expect(completed.status == 200)

        // Monitoring a payment costs the page what it costs the JSON API; the page adds one
        // write, which starts the consent on its challenge.
        #expect(firstShowing.count <= apiOpening.count + 1, "the first showing: \(firstShowing); JSON API: \(apiOpening)")
        #expect(pagePassword.count <= apiPassword.count + 1, "page: \(pagePassword); JSON API: \(apiPassword)")
        #expect(pageCode.count <= apiCode.count + 1, "page: \(pageCode); JSON API: \(apiCode)")
        if writesKnown {
            // The acceptance, its webhook event and its audit entry are in the proof's own write.
            let writes = { (calls: [StoreRoundTrips.Call]) in calls.filter(\.isWrite).count }
            #expect(writes(pagePassword) <= writes(apiPassword), "page: \(pagePassword); JSON API: \(apiPassword)")
            #expect(writes(pageCode) <= writes(apiCode), "page: \(pageCode); JSON API: \(apiCode)")
            // And the JSON API's payment opens in one write: the challenge with the payment
            // its risk decision recorded, that decision's entry and its own. Its completing
            // code takes two, the claim that counts the attempt before the code is checked and
            // the proof's, which also authorises the payment.
            #expect(writes(apiOpening) == 1, "JSON API: \(apiOpening)")
            #expect(writes(apiCode) == 2, "JSON API: \(apiCode)")
        }
    }
}
