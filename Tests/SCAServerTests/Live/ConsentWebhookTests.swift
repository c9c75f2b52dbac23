import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAServer
import Testing

/// Consent webhooks: a consent's decided statuses reach the partner's receiver
/// through the same signed outbox as operation events; steps (`Started`) do not.
@Suite("Consent webhooks")
struct ConsentWebhookTests {
    @Test("refused, canceled and expired consents reach a loopback receiver, signed, once each; opening one sends nothing")
    func decidedStatusesAreAnnounced() async throws {
        let receiver = PartnerWebhookTests.Receiver()
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await TestServer({ PartnerConsentTests.configure(&$0); $0.webhookAllowPrivateAddresses = true }).run { api in
                let partner = try await PartnerFixture.make(api)
                let tokens = try await partner.tokens(email: "hook@example.com", phone: "+33612345699")
                let accessToken = try #require(tokens["access_token"] as? String)
                let set = try await api.send(
                    .put, "/admin/v1/clients/\(partner.clientID)/webhook",
                    body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: "http://127.0.0.1:\(port)/hook")),
                    admin: true)
                let secret = try #require(try set.decode(PartnerWebhookResponse.self).signingSecret)
                func create(_ resource: String) async throws -> ConsentResponse {
                    let created = try await partner.createConsent(
                        CreateConsentRequest(
                            operation: .settingsChange, description: "Change your phone number",
                            consentRedirectUrl: PartnerFixture.consentRedirect, resourceId: resource),
                        accessToken: accessToken)
                    #expect(created.status == 201)
                    return try created.decode(ConsentResponse.self)
                }
                func events() throws -> [ConsentWebhookEvent] {
                    try receiver.received.withLock { $0 }.map {
                        #expect(PartnerWebhookTests.verify($0, secret: secret))
                        return try WireJSON.decoder().decode(ConsentWebhookEvent.self, from: Data($0.body))
                    }
                }

                // Opened (Started) is a step: nothing is announced. Refused on the page is.
                let refused = try await create("order-1")
                let browser = PageBrowser(api: api)
                let page = try await browser.get("/consents/\(refused.consentId)")
                #expect(try await api.services.deliverWebhooks() == 0)
                _ = try await browser.submit(page, action: "/consents/\(refused.consentId)/refuse", [:])
                #expect(try await api.services.deliverWebhooks() == 1)

                // Withdrawn by the partner.
                let canceled = try await create("order-2")
                #expect(try await partner.consent(canceled.consentId, accessToken: accessToken, method: .delete).status == 200)
                #expect(try await api.services.deliverWebhooks() == 1)

                // Nobody opens it: the sweep expires it and announces it.
                let forgotten = try await create("order-3")
                api.clock.advance(by: 901)
                #expect(try await api.services.deliverWebhooks() == 1)
                #expect(try await api.services.deliverWebhooks() == 0)

                let received = try events()
                #expect(received.map(\.type) == Array(repeating: "consent.status_changed", count: 3))
                #expect(received.map(\.consentId) == [refused.consentId, canceled.consentId, forgotten.consentId])
                #expect(received.map(\.status) == [.customerRefused, .canceled, .expired])
                #expect(received.map(\.resourceId) == ["order-1", "order-2", "order-3"])
                #expect(received.map(\.eventId) == receiver.received.withLock { $0.map(\.id) })
                #expect(!receiver.received.withLock { $0 }.contains { String(decoding: $0.body, as: UTF8.self).contains("accessToken") })
            }
        }
    }
}
