import Foundation
import HTTPTypes
import NIOCore
import SCACore
import SCAEngine
import Testing

@Suite("Consents on the hosted page, with their documented statuses")
struct PartnerConsentTests {
    static let payment = Transaction(
        amount: "1250.00", currency: "EUR", payee: .init(name: "Alice Martin", iban: "FR76 3000 6000 0112 3456 7890 189"),
        reference: "Invoice 42")

    /// Payments up to 5,000 need the usual two categories (the high-value rule would ask a
    /// third, which password and SMS cannot give).
    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.highValuePaymentThreshold = "5000.00"
    }

    /// A partner with a user's access token, and a consent for `payment`.
    private func setUp(_ api: APIClient, email: String, phone: String) async throws -> (PartnerFixture, String, ConsentResponse) {
        let partner = try await PartnerFixture.make(api)
        let tokens = try await partner.tokens(email: email, phone: phone)
        let accessToken = try #require(tokens["access_token"] as? String)
        let created = try await partner.createConsent(
            CreateConsentRequest(
                operation: .payment, transaction: Self.payment, consentRedirectUrl: PartnerFixture.consentRedirect,
                resourceId: "order-7"),
            accessToken: accessToken)
        #expect(created.status == 201)
        return (partner, accessToken, try created.decode(ConsentResponse.self))
    }

    @Test("a payment consent is shown as a person reads it, approved with SCA bound to the payment, and confirmed through the API")
    func acceptPayment() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, accessToken, consent) = try await setUp(api, email: "pay@example.com", phone: "+33612345611")
            #expect(consent.status == .created)
            #expect(consent.consentUrl == "\(api.services.configuration.baseURL)/consents/\(consent.consentId)")
            #expect(consent.expiresAt == api.clock.now().addingTimeInterval(900))

            let browser = PageBrowser(api: api)
            let path = "/consents/\(consent.consentId)"
            var page = try await browser.get(path)
            #expect(page.status == 200)
            #expect(page.text.contains("Pay €1,250.00 to Alice Martin"))
            #expect(page.text.contains("FR76 3000 6000 0112 3456 7890 189"))
            #expect(page.text.contains("autocomplete=\"one-time-code\""))
            #expect(page.text.contains("inputmode=\"numeric\""))
            #expect(page.headers[.contentSecurityPolicy]?.contains("form-action 'self' https://shop.example;") == true)
            #expect(try await partner.consent(consent.consentId, accessToken: accessToken).decode(ConsentResponse.self).status == .started)

            try await browser.submit(page, action: "\(path)/proof", ["method": "password", "credential": PartnerFixture.password])
            page = try await browser.get(path)
            try await browser.submit(page, action: "\(path)/send", ["method": "sms_otp"])
            let sms = try #require(try api.services.outbox?.messages().last { $0.to == "+33612345611" })
            #expect(sms.text.contains("pay €1,250.00 to Alice Martin"))
            page = try await browser.get(path)
            let done = try await browser.submit(
                page, action: "\(path)/proof", ["method": "sms_otp", "credential": String(sms.text.prefix(6))])
            #expect(done.status == 303)
            let location = try #require(done.headers[.location])
            #expect(location.hasPrefix(PartnerFixture.consentRedirect + "?"))
            #expect(PageBrowser.query(of: location) == ["consentId": consent.consentId, "status": "Accepted", "resourceId": "order-7"])

            let confirmed = try await partner.consent(consent.consentId, accessToken: accessToken).decode(ConsentResponse.self)
            #expect(confirmed.status == .accepted)
            let operationToken = try #require(confirmed.accessToken)
            let introspected = try await api.introspect(operationToken, operation: .payment, transaction: Self.payment, consume: true)
            #expect(introspected.active)
            #expect(introspected.txn == (try? TransactionRules.normalized(Self.payment).get())?.digest)
            #expect(try await api.introspect(operationToken, operation: .payment, transaction: Self.payment, consume: true).active == false)

            // Accepted twice: the page says so and changes nothing; cancelling is refused.
            let again = try await browser.get(path)
            #expect(again.text.contains("Already approved"))
            let cancel = try await partner.consent(consent.consentId, accessToken: accessToken, method: .delete)
            #expect(cancel.status == 409)
            #expect(cancel.problem?.code == .consentClosed)
            let committing = try await api.client.execute(
                uri: "/v1/consents/\(consent.consentId)/status", method: .post,
                headers: [.contentType: "application/json", .authorization: "Bearer \(accessToken)"],
                body: ByteBuffer(string: "{\"status\":\"OperationCommitting\"}"))
            #expect(committing.status == .ok)
            let trail = try await api.services.store.auditEntries(after: 0, limit: 1_000).filter { $0.draft.event == "consent.changed" }
            #expect(trail.compactMap { $0.draft.details["to"] } == ["Created", "Started", "Accepted", "OperationCommitting"])
        }
    }

    @Test("refused on the page: CustomerRefused, back to the partner")
    func refuse() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, accessToken, consent) = try await setUp(api, email: "no@example.com", phone: "+33612345612")
            let browser = PageBrowser(api: api)
            let path = "/consents/\(consent.consentId)"
            let page = try await browser.get(path)
            let refused = try await browser.submit(page, action: "\(path)/refuse", [:])
            #expect(PageBrowser.query(of: try #require(refused.headers[.location]))["status"] == "CustomerRefused")
            #expect(try await partner.consent(consent.consentId, accessToken: accessToken).decode(ConsentResponse.self).status == .customerRefused)
            // The closed page names the partner on its way back.
            let closed = try await browser.get(path)
            #expect(closed.text.contains("Refused"))
            #expect(closed.text.contains("Return to Shop"))
            #expect(!closed.text.contains("Return to the application"))
        }
    }

    @Test("expired after 15 minutes, cancelled by the partner, unknown to another client")
    func expiredCanceledForeign() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, _, consent) = try await setUp(api, email: "late@example.com", phone: "+33612345613")
            api.clock.advance(by: 901)
            let expired = try await PageBrowser(api: api).get("/consents/\(consent.consentId)").text
            #expect(expired.contains("This request has expired"))
            #expect(expired.contains("Return to Shop"))
            // The partner's token idled out meanwhile; a new sign-in gives a new one.
            let later = try await refreshed(partner, api: api, email: "late@example.com")
            #expect(try await partner.consent(consent.consentId, accessToken: later).decode(ConsentResponse.self).status == .expired)

            let created = try await partner.createConsent(
                CreateConsentRequest(operation: .settingsChange, description: "Change your phone number",
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: try await refreshed(partner, api: api, email: "late@example.com"))
            #expect(created.status == 201)
            let second = try created.decode(ConsentResponse.self)
            let token = try await refreshed(partner, api: api, email: "late@example.com")
            let canceled = try await partner.consent(second.consentId, accessToken: token, method: .delete)
            #expect(try canceled.decode(ConsentResponse.self).status == .canceled)
            let withdrawn = try await PageBrowser(api: api).get("/consents/\(second.consentId)").text
            #expect(withdrawn.contains("withdrawn"))
            #expect(withdrawn.contains("Return to Shop"))

            // Another client's token does not see it.
            let other = try await PartnerFixture.make(api)
            let otherTokens = try await other.tokens(email: "other@example.com", phone: "+33612345614")
            let foreign = try await other.consent(second.consentId, accessToken: try #require(otherTokens["access_token"] as? String))
            #expect(foreign.problem?.code == .consentNotFound)
        }
    }

    /// A fresh sign-in of `email` (its user exists) for a fresh token.
    private func refreshed(_ partner: PartnerFixture, api: APIClient, email: String) async throws -> String {
        let (verifier, challenge) = PartnerFixture.pkce("c")
        let phone = try #require(try await api.services.store.user(email: email)?.phone)
        let query = try await partner.signIn(PageBrowser(api: api), email: email, phone: phone, challenge: challenge)
        let response = try await partner.exchange(code: try #require(query["code"]), verifier: verifier)
        return try #require(response.json["access_token"] as? String)
    }

    @Test("refusals: a redirect URL the client did not register, a token of no partner, a tampered link or form")
    func refusals() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, accessToken, consent) = try await setUp(api, email: "tamper@example.com", phone: "+33612345615")
            let foreignRedirect = try await partner.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: "https://evil.example/done"),
                accessToken: accessToken)
            #expect(foreignRedirect.status == 400)
            #expect(foreignRedirect.problem?.code == .consentRedirectNotRegistered)
            let mixed = try await partner.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, description: "and more",
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: accessToken)
            #expect(mixed.status == 400)

            // A token of our own app (no partner client) may not create consents.
            let userID = try await api.createUser("own@example.com")
            let own = try await api.logIn("own@example.com", totp: try await api.enrollTOTP(userID))
            let byOwnApp = try await partner.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: try #require(own.accessToken))
            #expect(byOwnApp.status == 403)

            // A link with another id, and a form of one consent posted to another.
            let browser = PageBrowser(api: api)
            #expect(try await browser.get("/consents/cst_doesnotexist").status == 404)
            let page = try await browser.get("/consents/\(consent.consentId)")
            let second = try await partner.createConsent(
                CreateConsentRequest(operation: .beneficiaryAdd, beneficiary: .init(name: "Bob", iban: "DE89370400440532013000"),
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: accessToken)
            let other = try second.decode(ConsentResponse.self)
            let csrf = try #require(PageBrowser.csrf(in: page, action: "/consents/\(consent.consentId)/refuse"))
            let tampered = try await browser.submit(page, action: "/consents/\(other.consentId)/refuse", [:], csrf: csrf)
            #expect(tampered.status == 403)
            #expect(try await partner.consent(other.consentId, accessToken: accessToken).decode(ConsentResponse.self).status == .created)
            let secondPage = try await PageBrowser(api: api).get("/consents/\(other.consentId)")
            #expect(secondPage.text.contains("Add Bob as a beneficiary"))
            #expect(secondPage.text.contains("DE89 3704 0044 0532 0130 00"))
        }
    }

    @Test("a blocked user: CredentialRefused, and the partner is told")
    func blockedUser() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.lockout.maxFailedAttempts = 1
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
        }.run { api in
            let (partner, accessToken, consent) = try await setUp(api, email: "blocked@example.com", phone: "+33612345616")
            // One wrong password on a login challenge blocks the user.
            let challenge = try await api.startChallenge(email: "blocked@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "wrong").status == 401)
            let page = try await PageBrowser(api: api).get("/consents/\(consent.consentId)")
            #expect(page.text.contains("Access blocked"))
            #expect(page.text.contains("status=CredentialRefused"))
            let status = try await partner.consent(consent.consentId, accessToken: accessToken).decode(ConsentResponse.self).status
            #expect(status == .credentialRefused)
        }
    }
}
