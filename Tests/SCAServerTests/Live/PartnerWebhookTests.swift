import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SCACore
import SCAServer
import SCAStorage
import Synchronization
import Testing

/// Partner webhooks: final statuses of a partner's operations are posted, signed,
/// to its registered URL by the background delivery pass, and retried with back-off.
@Suite("Partner webhooks")
struct PartnerWebhookTests {
    /// A partner's receiver on loopback: records each POST (headers and raw body) and answers
    /// the next status of `answers` (200 once they run out).
    final class Receiver: Sendable {
        struct Received: Sendable {
            var id: String?
            var timestamp: String?
            var signature: String?
            var body: [UInt8]
        }
        let received = Mutex<[Received]>([])
        let answers = Mutex<[HTTPResponse.Status]>([])

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("hook") { request, _ -> HTTPResponse.Status in
                let body = try await request.body.collect(upTo: 65_536)
                self.received.withLock {
                    $0.append(
                        Received(
                            id: request.headers[HTTPField.Name("SCA-Webhook-Id")!],
                            timestamp: request.headers[HTTPField.Name("SCA-Webhook-Timestamp")!],
                            signature: request.headers[HTTPField.Name("SCA-Webhook-Signature")!],
                            body: Array(buffer: body)))
                }
                return self.answers.withLock { $0.isEmpty ? .ok : $0.removeFirst() }
            }
            return router
        }
    }

    /// What a receiver does (docs/WEBHOOKS.md): HMAC-SHA256 over `timestamp.body`, compared to `v1=<hex>`.
    static func verify(_ received: Receiver.Received, secret: String) -> Bool {
        guard let timestamp = received.timestamp, let signature = received.signature else { return false }
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("\(timestamp).".utf8) + received.body, using: SymmetricKey(data: Array(secret.utf8)))
        return signature == "v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    static func basic(_ fixture: PartnerFixture) -> HTTPFields {
        let credentials = Data("\(fixture.clientID):\(fixture.clientSecret ?? "")".utf8).base64EncodedString()
        return [.contentType: "application/json", .authorization: "Basic \(credentials)"]
    }

    /// A partner client with a webhook at `url`, alice signed in to it with a bound phone.
    static func partner(_ api: APIClient, url: String) async throws -> (PartnerFixture, String, String) {
        let shop = try await PartnerFixture.make(api)
        _ = try await shop.tokens(email: "alice@example.com", phone: "+33612345678")
        let alice = try #require(try await api.services.store.user(email: "alice@example.com"))
        var device = TestDevice()
        try await api.activate(&device, userID: alice.id)
        let set = try await api.send(
            .put, "/admin/v1/clients/\(shop.clientID)/webhook", body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: url)),
            admin: true)
        #expect(set.status == 200)
        let secret = try #require(try set.decode(PartnerWebhookResponse.self).signingSecret)
        return (shop, alice.id, secret)
    }

    static func createOperation(_ api: APIClient, as shop: PartnerFixture, userID: String) async throws -> OperationResponse {
        let response = try await api.client.execute(
            uri: "/v1/operations", method: .post, headers: basic(shop),
            body: ByteBuffer(bytes: try WireJSON.encoder().encode(OperationFlowTests.paymentRequest(userID))))
        #expect(response.status == .created)
        return try WireJSON.decoder().decode(OperationResponse.self, from: Data(buffer: response.body))
    }

    @Test("a canceled and an expired operation reach the receiver, signed; a 500 is retried after the back-off")
    func deliveredSignedAndRetried() async throws {
        let receiver = Receiver()
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer { $0.webhookAllowPrivateAddresses = true }
            let clock = server.clock
            try await server.run { api in
                let (shop, userID, secret) = try await Self.partner(api, url: "http://127.0.0.1:\(port)/hook")
                let operation = try await Self.createOperation(api, as: shop, userID: userID)
                // Nothing is sent before a final status, and never on the request path.
                #expect(try await api.services.deliverWebhooks() == 0)
                let canceled = try await api.client.execute(
                    uri: "/v1/operations/\(operation.operationId)", method: .delete, headers: Self.basic(shop))
                #expect(canceled.status == .ok)
                #expect(receiver.received.withLock { $0.isEmpty })

                receiver.answers.withLock { $0 = [.internalServerError] }
                #expect(try await api.services.deliverWebhooks() == 1)
                // Not due again before the first back-off step.
                clock.advance(by: 4)
                #expect(try await api.services.deliverWebhooks() == 0)
                clock.advance(by: 1)
                #expect(try await api.services.deliverWebhooks() == 1)
                #expect(try await api.services.deliverWebhooks() == 0)

                let received = receiver.received.withLock { $0 }
                #expect(received.count == 2)
                let first = try #require(received.first)
                #expect(Self.verify(first, secret: secret))
                #expect(!Self.verify(first, secret: "another secret"))
                // The same event (id and bytes) both times, under a fresh timestamp.
                #expect(received[1].id == first.id)
                #expect(received[1].body == first.body)
                #expect(Self.verify(received[1], secret: secret))
                let event = try WireJSON.decoder().decode(WebhookEvent.self, from: Data(first.body))
                #expect(event.type == "operation.finished")
                #expect(event.operationId == operation.operationId)
                #expect(event.status == .canceled)
                #expect(event.eventId == first.id)
                #expect(!String(decoding: first.body, as: UTF8.self).contains("accessToken"))
                let eventID = try #require(first.id)
                let stored = try #require(try await api.services.store.webhookDelivery(id: eventID))
                #expect(stored.status == .delivered)
                #expect(stored.attempts == 2)

                // An operation nobody reads: the sweep expires it and announces it.
                let forgotten = try await Self.createOperation(api, as: shop, userID: userID)
                clock.advance(by: 301)
                #expect(try await api.services.deliverWebhooks() == 1)
                let expired = try #require(receiver.received.withLock { $0.last })
                #expect(Self.verify(expired, secret: secret))
                let expiredEvent = try WireJSON.decoder().decode(WebhookEvent.self, from: Data(expired.body))
                #expect(expiredEvent.operationId == forgotten.operationId)
                #expect(expiredEvent.status == .expired)
            }
        }
    }

    @Test("a receiver that never answers 2xx is given up after the last back-off step, and audited")
    func abandoned() async throws {
        let receiver = Receiver()
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer { $0.webhookAllowPrivateAddresses = true }
            let clock = server.clock
            try await server.run { api in
                let (shop, userID, _) = try await Self.partner(api, url: "http://127.0.0.1:\(port)/hook")
                receiver.answers.withLock { $0 = Array(repeating: .serviceUnavailable, count: 10) }
                let operation = try await Self.createOperation(api, as: shop, userID: userID)
                _ = try await api.client.execute(
                    uri: "/v1/operations/\(operation.operationId)", method: .delete, headers: Self.basic(shop))
                #expect(try await api.services.deliverWebhooks() == 1)
                for step in WebhookDeliveryRecord.backoff {
                    clock.advance(by: step)
                    #expect(try await api.services.deliverWebhooks() == 1)
                }
                clock.advance(by: 86_400)
                #expect(try await api.services.deliverWebhooks() == 0)
                #expect(receiver.received.withLock { $0.count } == WebhookDeliveryRecord.backoff.count + 1)
                let audit = try await OperationFlowTests.audit(api)
                #expect(audit.contains { $0.event == "webhook.abandoned" })
            }
        }
    }

    @Test("a webhook URL that is not https (or http on localhost) is refused with a clear problem and changes nothing")
    func badURL() async throws {
        try await TestServer().run { api in
            let shop = try await PartnerFixture.make(api)
            for url in ["http://shop.example/hook", "ftp://shop.example/hook", "com.shop.app:/hook", "not a url", ""] {
                let response = try await api.send(
                    .put, "/admin/v1/clients/\(shop.clientID)/webhook",
                    body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: url)), admin: true)
                #expect(response.status == 400)
                #expect(response.problem?.code == .requestInvalid)
                #expect(response.problem?.detail?.hasPrefix("url ") == true)
            }
            #expect(try await api.services.store.partnerWebhook(clientID: shop.clientID) == nil)
            let unknown = try await api.send(
                .put, "/admin/v1/clients/cli_unknown/webhook",
                body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: "https://shop.example/hook")), admin: true)
            #expect(unknown.status == 404)
            #expect(try await api.send(.delete, "/admin/v1/clients/\(shop.clientID)/webhook", admin: true).status == 404)
            let set = try await api.send(
                .put, "/admin/v1/clients/\(shop.clientID)/webhook",
                body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: "https://shop.example/hook")), admin: true)
            #expect(set.status == 200)
            #expect(try set.decode(PartnerWebhookResponse.self).signingSecret?.isEmpty == false)
            // The secret is stored sealed, not in the clear.
            let stored = try #require(try await api.services.store.partnerWebhook(clientID: shop.clientID))
            let secret = try #require(try set.decode(PartnerWebhookResponse.self).signingSecret)
            #expect(!String(decoding: stored.sealedSecret, as: UTF8.self).contains(secret))
            #expect(try await api.send(.delete, "/admin/v1/clients/\(shop.clientID)/webhook", admin: true).status == 200)
        }
    }
}
