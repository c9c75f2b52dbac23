import Foundation
import HTTPTypes
import SCAClient
import SCACore
import Testing

/// "Approve on your phone" on the hosted consent page, through the real routes on a
/// socket, with the phone's side played by the real SDK: the page opens an operation bound to
/// the consent's amount and payee, waits, and continues when the phone answers.
@Suite("Hosted consent: approve on your phone")
struct ConsentPhoneApprovalTests {
    static let payment = PartnerConsentTests.payment

    /// A partner with a user's token, the user's phone activated through the SDK, and a
    /// payment consent with the consent page open in a browser without script.
    struct Scene {
        var partner: PartnerFixture
        var accessToken: String
        var consent: ConsentResponse
        var phone: SDKPhone
        var browser: PageBrowser
        var path: String { "/consents/\(consent.consentId)" }
    }

    static func scene(_ api: APIClient, url: URL, email: String, phone number: String) async throws -> Scene {
        let partner = try await PartnerFixture.make(api)
        let tokens = try await partner.tokens(email: email, phone: number)
        let accessToken = try #require(tokens["access_token"] as? String)
        let userID = try #require(try await api.services.store.user(email: email)?.id)
        let phone = try await SDKPhone.activate(api, url: url, userID: userID, directory: api.services.configuration.dataDirectory.asURL)
        let created = try await partner.createConsent(
            CreateConsentRequest(
                operation: .payment, transaction: payment, consentRedirectUrl: PartnerFixture.consentRedirect,
                resourceId: "order-9"),
            accessToken: accessToken)
        #expect(created.status == 201)
        return Scene(
            partner: partner, accessToken: accessToken, consent: try created.decode(ConsentResponse.self), phone: phone,
            browser: PageBrowser(api: api))
    }

    /// Opens the consent page, picks "Approve on your phone" and lands on the waiting page.
    @discardableResult
    static func choosePhone(_ scene: Scene) async throws -> APIResponse {
        let page = try await scene.browser.get(scene.path)
        #expect(page.status == 200)
        #expect(page.text.contains("Approve on your phone"))
        #expect(page.text.contains("Pixel of Alice"))
        let started = try await scene.browser.submit(page, action: "\(scene.path)/phone", [:])
        #expect(started.status == 303)
        #expect(started.headers[.location] == "\(scene.path)/phone")
        let waiting = try await scene.browser.get("\(scene.path)/phone")
        #expect(waiting.status == 200)
        return waiting
    }

    /// `POST …/phone/status` with the waiting page's CSRF token.
    static func status(_ scene: Scene, waiting: APIResponse, wait: Int) async throws -> APIResponse {
        let csrf = try #require(dataAttribute("data-csrf", in: waiting.text))
        return try await scene.browser.submit(waiting, action: "\(scene.path)/phone/status", ["wait": String(wait)], csrf: csrf)
    }

    static func dataAttribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\""), let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(html[start.upperBound..<end])
    }

    @Test("the phone sees the page's amount and payee; its approval wakes the held status request and accepts the consent once")
    func approveOnPhone() async throws {
        try await TestServer(PartnerConsentTests.configure).runLive { api, url in
            let scene = try await Self.scene(api, url: url, email: "phone.pay@example.com", phone: "+33612349001")
            let waiting = try await Self.choosePhone(scene)
            // The waiting page: the same amount, payee and IBAN, the phone's text to compare,
            // the script (own origin, fetch allowed to it alone) and the no-script refresh.
            #expect(waiting.text.contains("Pay €1,250.00 to Alice Martin"))
            #expect(waiting.text.contains("FR76 3000 6000 0112 3456 7890 189"))
            #expect(waiting.text.contains("Waiting for your phone"))
            #expect(waiting.text.contains("<noscript><meta http-equiv=\"refresh\" content=\"5\"></noscript>"))
            #expect(waiting.text.contains("<script src=\"/hosted/phone.js\" defer></script>"))
            let policy = try #require(waiting.headers[.contentSecurityPolicy])
            #expect(policy.contains("connect-src 'self';") && policy.contains("script-src 'self';"))
            let script = try await scene.browser.get("/hosted/phone.js")
            #expect(script.status == 200 && script.text.contains("data-phone-wait"))

            // The phone: exactly the consent's transaction, the partner named with the code the page shows.
            let operation = try await scene.phone.pending()
            #expect(operation.operation == .payment)
            #expect(operation.transaction == (try TransactionRules.normalized(Self.payment).get()))
            let binding = try #require(operation.bindingMessage)
            #expect(binding.hasPrefix("Shop · code "))
            #expect(waiting.text.contains(binding))
            let pushed = try #require(try api.services.outbox?.messages().last { $0.to == scene.phone.deviceID })
            #expect(pushed.channel == .push && pushed.operationId == operation.operationId)
            #expect(pushed.text.contains("€1,250.00 to Alice Martin"))

            // Nothing yet: a status request with no wait answers pending.
            let early = try await Self.status(scene, waiting: waiting, wait: 0)
            #expect(try early.decode(PhoneApprovalStatusBody.self).status == "pending")
            // A held status request answers when the phone approves (the server's clock never
            // moves, so its 25 s wait cannot be what ends it).
            let held = Task { try await Self.status(scene, waiting: waiting, wait: 25) }
            try await Task.sleep(for: .milliseconds(1_200))
            let collector = ApprovingCollector()
            #expect(try await scene.phone.client.approve(operation, using: collector).status == .approved)
            #expect(collector.reasons == ["Approve paying 1250.00 EUR to Alice Martin"])
            let answered = try await held.value
            let body = try answered.decode(PhoneApprovalStatusBody.self)
            #expect(body.status == "approved" && body.next == "\(scene.path)/phone")

            // The page continues exactly as after a factor approval: back to the partner.
            let done = try await scene.browser.get(body.next)
            #expect(done.status == 303)
            let location = try #require(done.headers[.location])
            #expect(PageBrowser.query(of: location) == [
                "consentId": scene.consent.consentId, "status": "Accepted", "resourceId": "order-9",
            ])
            let confirmed = try await scene.partner.consent(scene.consent.consentId, accessToken: scene.accessToken)
                .decode(ConsentResponse.self)
            #expect(confirmed.status == .accepted)
            let token = try #require(confirmed.accessToken)
            let introspected = try await api.introspect(token, operation: .payment, transaction: Self.payment, consume: true)
            #expect(introspected.active)
            #expect(introspected.txn == (try TransactionRules.normalized(Self.payment).get()).digest)
            #expect(introspected.amr?.contains(.biometricKey) == true)
            #expect(try await api.introspect(token, operation: .payment, transaction: Self.payment, consume: true).active == false)
            // Seen again (the page reloaded): already approved, nothing changes.
            #expect(try await scene.browser.get(scene.path).text.contains("Already approved"))
            let trail = try await api.services.store.auditEntries(after: 0, limit: 1_000)
                .filter { $0.draft.event == "consent.changed" }.compactMap { $0.draft.details["to"] }
            #expect(trail == ["Created", "Started", "Accepted"])
        }
    }

    @Test("declined on the phone as not me: the page says so, offers no retry, and the consent is refused")
    func rejectNotMe() async throws {
        try await TestServer(PartnerConsentTests.configure).runLive { api, url in
            let scene = try await Self.scene(api, url: url, email: "phone.notme@example.com", phone: "+33612349002")
            let waiting = try await Self.choosePhone(scene)
            let operation = try await scene.phone.pending()
            #expect(try await scene.phone.client.reject(operation, reason: .notMe).status == .rejected)
            #expect(try await Self.status(scene, waiting: waiting, wait: 5).decode(PhoneApprovalStatusBody.self).status == "rejected")
            let page = try await scene.browser.get("\(scene.path)/phone")
            #expect(page.status == 200)
            #expect(page.text.contains("Declined on your phone"))
            #expect(page.text.contains("you did not ask for this payment, so it was declined and nothing was paid"))
            #expect(!page.text.contains("Confirm another way"))
            #expect(!page.text.contains("Send it to my phone again"))
            #expect(page.text.contains("status=CustomerRefused"))
            let read = try await scene.partner.consent(scene.consent.consentId, accessToken: scene.accessToken)
                .decode(ConsentResponse.self)
            #expect(read.status == .customerRefused)
            #expect(read.accessToken == nil)
            let fraud = try await api.services.store.auditEntries(after: 0, limit: 1_000).filter { $0.draft.event == "operation.fraud_signal" }
            #expect(fraud.count == 1)
        }
    }

    @Test("declined for another reason: the page says so and offers the other ways; a new challenge of the page's own follows")
    func rejectOther() async throws {
        try await TestServer(PartnerConsentTests.configure).runLive { api, url in
            let scene = try await Self.scene(api, url: url, email: "phone.other@example.com", phone: "+33612349003")
            try await Self.choosePhone(scene)
            let operation = try await scene.phone.pending()
            try await scene.phone.client.reject(operation, reason: .other)
            let page = try await scene.browser.get("\(scene.path)/phone")
            #expect(page.text.contains("You declined this on your phone"))
            #expect(page.text.contains("Confirm another way"))
            let read = try await scene.partner.consent(scene.consent.consentId, accessToken: scene.accessToken)
                .decode(ConsentResponse.self)
            #expect(read.status == .started)
            // The other ways: the factors page again, on a challenge that is not the phone's.
            let factors = try await scene.browser.get(scene.path)
            #expect(factors.text.contains("autocomplete=\"current-password\""))
            let record = try #require(try await api.services.store.consent(id: scene.consent.consentId))
            let challengeID = try #require(record.challengeID)
            let challenge = try #require(try await api.services.store.challenge(id: challengeID))
            #expect(challenge.deviceID == nil && challenge.state == .pending)
        }
    }

    @Test("the phone does not answer in time: expired on the page, sent again on request, and cancelled when the user picks another way")
    func expiryRetryCancel() async throws {
        try await TestServer(PartnerConsentTests.configure).runLive { api, url in
            let scene = try await Self.scene(api, url: url, email: "phone.late@example.com", phone: "+33612349004")
            let waiting = try await Self.choosePhone(scene)
            let first = try await scene.phone.pending()
            api.clock.advance(by: 301)
            #expect(try await Self.status(scene, waiting: waiting, wait: 0).decode(PhoneApprovalStatusBody.self).status == "expired")
            let expired = try await scene.browser.get("\(scene.path)/phone")
            #expect(expired.text.contains("Your phone did not answer in time"))
            #expect(try await scene.phone.client.pendingOperations().isEmpty)
            // Too late to approve.
            await #expect(throws: SCAClientError.self) { try await scene.phone.client.approve(first, using: ApprovingCollector()) }

            // Send it again: a new operation on a new challenge.
            let again = try await scene.browser.submit(expired, action: "\(scene.path)/phone", [:])
            #expect(again.headers[.location] == "\(scene.path)/phone")
            let second = try await scene.phone.pending()
            #expect(second.operationId != first.operationId && second.challengeId != first.challengeId)
            let waitingAgain = try await scene.browser.get("\(scene.path)/phone")
            #expect(waitingAgain.text.contains("Waiting for your phone"))

            // The user picks another way: the operation is cancelled and the phone no longer lists it.
            let back = try await scene.browser.submit(waitingAgain, action: "\(scene.path)/phone/cancel", [:])
            #expect(back.headers[.location] == scene.path)
            #expect(try await scene.phone.client.pendingOperations().isEmpty)
            #expect(try await api.services.store.operation(id: second.operationId)?.status == .canceled)
            let factors = try await scene.browser.get(scene.path)
            #expect(factors.text.contains("autocomplete=\"current-password\""))
            // An approval of the cancelled operation is refused and the consent stays open.
            await #expect(throws: SCAClientError.self) { try await scene.phone.client.approve(second, using: ApprovingCollector()) }
            // (The partner's token idled out with the clock; the store tells.)
            #expect(try await api.services.store.consent(id: scene.consent.consentId)?.status == .started)
        }
    }

    @Test("the operation is bound to the consent's amount: signatures over another amount are refused and change nothing")
    func boundToTheAmount() async throws {
        try await TestServer(PartnerConsentTests.configure).runLive { api, url in
            let scene = try await Self.scene(api, url: url, email: "phone.bound@example.com", phone: "+33612349005")
            let waiting = try await Self.choosePhone(scene)
            let operation = try await scene.phone.pending()
            // A phone (or a man in the middle) that shows and signs 12,500.00 instead.
            var changed = operation
            var transaction = try #require(operation.transaction)
            transaction.amount = "12500.00"
            changed.transaction = transaction
            changed.transactionDigest = (try TransactionRules.normalized(transaction).get()).digest
            await #expect(throws: SCAClientError.self) { try await scene.phone.client.approve(changed, using: ApprovingCollector()) }
            #expect(try await Self.status(scene, waiting: waiting, wait: 0).decode(PhoneApprovalStatusBody.self).status == "pending")
            let still = try await scene.browser.get("\(scene.path)/phone")
            #expect(still.text.contains("Waiting for your phone"))
            #expect(
                try await scene.partner.consent(scene.consent.consentId, accessToken: scene.accessToken)
                    .decode(ConsentResponse.self).status == .started)
            // The real amount still goes through, and the token is for it.
            try await scene.phone.client.approve(operation, using: ApprovingCollector())
            let done = try await scene.browser.get("\(scene.path)/phone")
            #expect(PageBrowser.query(of: try #require(done.headers[.location]))["status"] == "Accepted")
            let token = try #require(
                try await scene.partner.consent(scene.consent.consentId, accessToken: scene.accessToken)
                    .decode(ConsentResponse.self).accessToken)
            var other = Self.payment
            other.amount = "12500.00"
            #expect(try await api.introspect(token, operation: .payment, transaction: other, consume: false).active == false)
        }
    }

    @Test("refusals: the status request without the page's token, a user without a phone is not offered one, another visit starts over")
    func refusals() async throws {
        try await TestServer(PartnerConsentTests.configure).runLive { api, url in
            let scene = try await Self.scene(api, url: url, email: "phone.refuse@example.com", phone: "+33612349006")
            let waiting = try await Self.choosePhone(scene)
            let forged = try await scene.browser.submit(waiting, action: "\(scene.path)/phone/status", ["wait": "0"], csrf: "forged")
            #expect(forged.status == 403)
            #expect(forged.problem?.code == .forbidden)
            let tooLong = try await Self.status(scene, waiting: waiting, wait: 26)
            #expect(tooLong.status == 400)
            // A malformed id on the waiting page is not found, not sent on to the consent page.
            for id in ["cst_" + String(repeating: "0", count: 64), "0000", "cst_a%20b"] {
                let malformed = try await PageBrowser(api: api).get("/consents/\(id)/phone")
                #expect(malformed.status == 404, "\(id)")
                #expect(malformed.headers[.location] == nil)
            }
            // Another browser (no cookie) opening the consent does not get the phone's challenge.
            let stranger = PageBrowser(api: api)
            let page = try await stranger.get(scene.path)
            #expect(page.text.contains("autocomplete=\"current-password\""))
            let record = try #require(try await api.services.store.consent(id: scene.consent.consentId))
            let challengeID = try #require(record.challengeID)
            let challenge = try #require(try await api.services.store.challenge(id: challengeID))
            #expect(challenge.deviceID == nil)
            // The first visit notices it was superseded: back to the factors, its operation withdrawn.
            let operation = try await scene.phone.pending()
            let moved = try await scene.browser.get("\(scene.path)/phone")
            #expect(moved.headers[.location] == scene.path)
            #expect(try await api.services.store.operation(id: operation.operationId)?.status == .canceled)

            // A user with no device is not offered the phone.
            let bare = try await PartnerFixture.make(api)
            let tokens = try await bare.tokens(email: "nophone@example.com", phone: "+33612349007")
            let created = try await bare.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: try #require(tokens["access_token"] as? String))
            let plain = try await PageBrowser(api: api).get("/consents/\(try created.decode(ConsentResponse.self).consentId)")
            #expect(plain.status == 200)
            #expect(!plain.text.contains("Approve on your phone"))
        }
    }
}

/// The JSON of `POST /consents/{id}/phone/status` as a page script reads it.
struct PhoneApprovalStatusBody: Decodable {
    var status: String
    var next: String
}

extension String {
    fileprivate var asURL: URL { URL(fileURLWithPath: self) }
}
