import Foundation
import HTTPTypes
import SCACore
import SCAStorage
import Testing

/// The webhook SSRF filter: with `webhookAllowPrivateAddresses` off (the default),
/// a URL whose host is a special-purpose address is refused at registration, and a name that
/// resolves to one is refused at delivery, audited, without connecting.
@Suite("Webhook addresses")
struct WebhookAddressTests {
    @Test("loopback, private, link-local, CGNAT, multicast and unspecified hosts are refused at registration; public ones are not")
    func refusedAtRegistration() async throws {
        try await TestServer().run { api in
            #expect(api.services.configuration.webhookAllowPrivateAddresses == false)
            let shop = try await PartnerFixture.make(api)
            for url in [
                "https://127.0.0.1/hook", "http://127.0.0.1:8080/hook", "http://localhost:8080/hook", "https://10.1.2.3/hook",
                "https://172.20.0.5/hook", "https://192.168.0.10/hook", "https://169.254.169.254/latest/meta-data",
                "https://100.64.0.1/hook", "https://224.0.0.1/hook", "https://0.0.0.0/hook", "https://[::1]/hook",
                "https://[::ffff:192.168.1.1]/hook", "https://[fd00::1]/hook", "https://[fe80::1]/hook",
                "https://2130706433/hook",
                // Other spellings of inside addresses.
                "https://127.0.0.1./hook", "https://0177.0.0.1/hook", "https://0x7f.1/hook", "https://[::]/hook",
                "https://[2002:a9fe:a9fe::]/hook", "https://[64:ff9b::a9fe:a9fe]/hook", "https://[::127.0.0.1]/hook",
                "https://[::ffff:0:a9fe:a9fe]/hook", "https://localhost./hook",
            ] {
                let response = try await api.send(
                    .put, "/admin/v1/clients/\(shop.clientID)/webhook",
                    body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: url)), admin: true)
                #expect(response.status == 400, "\(url)")
                #expect(response.problem?.code == .webhookAddressRefused, "\(url)")
            }
            #expect(try await api.services.store.partnerWebhook(clientID: shop.clientID) == nil)
            for url in ["https://93.184.216.34/hook", "https://hooks.shop.example/sca"] {
                let response = try await api.send(
                    .put, "/admin/v1/clients/\(shop.clientID)/webhook",
                    body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: url)), admin: true)
                #expect(response.status == 200, "\(url)")
            }
        }
    }

    @Test("a name that resolves to a special-purpose address is refused at each delivery, audited, and retried with back-off")
    func refusedAtDelivery() async throws {
        // This machine's own name resolves to a loopback or private address: a name passes the
        // registration check (it is no address literal) and points inside at delivery.
        let name = ProcessInfo.processInfo.hostName
        try #require(SpecialPurposeAddress.kind(ofHost: name) == nil && SpecialPurposeAddress.literal(name) == nil)
        try await TestServer().run { api in
            let (shop, userID, _) = try await PartnerWebhookTests.partner(api, url: "https://\(name):9/hook")
            let operation = try await PartnerWebhookTests.createOperation(api, as: shop, userID: userID)
            let canceled = try await api.client.execute(
                uri: "/v1/operations/\(operation.operationId)", method: .delete, headers: PartnerWebhookTests.basic(shop))
            #expect(canceled.status == .ok)
            #expect(try await api.services.deliverWebhooks() == 1)
            let refused = try await api.auditEvents("webhook.address_refused")
            #expect(refused.count == 1)
            #expect(["loopback", "private"].contains(refused.first?.outcome ?? ""))
            #expect(refused.first?.details["host"] == name)
            #expect(refused.first?.details["clientId"] == shop.clientID)
            let delivery = try #require(try await api.services.store.dueWebhookDeliveries(now: api.clock.now() + 86_400, limit: 10).first)
            #expect(delivery.attempts == 1)
            #expect(delivery.lastHTTPStatus == nil)
            #expect(delivery.status == .pending)
        }
    }
}
