import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Synchronization
import Testing

/// Outbound HTTP (webhooks and gateways) follows no redirect, and connects only to the
/// address it resolved and checked for the request.
@Suite("Outbound requests")
struct OutboundRedirectTests {
    /// A receiver on loopback that answers `/hook` with `answer` (a redirect to `/inside`), and
    /// records every request to any path, with its method and `Host`.
    final class Receiver: Sendable {
        struct Hit: Sendable, Equatable {
            var method: String
            var path: String
            var host: String?
        }
        let hits = Mutex<[Hit]>([])
        let answer = Mutex<HTTPResponse.Status>(.temporaryRedirect)
        let port = Mutex(0)

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.on("{path}", method: .post) { request, context in try await self.handle(request, context) }
            router.on("{path}", method: .get) { request, context in try await self.handle(request, context) }
            return router
        }

        private func handle(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
            _ = try await request.body.collect(upTo: 65_536)
            hits.withLock {
                $0.append(Hit(method: request.method.rawValue, path: request.uri.path, host: request.head.authority))
            }
            guard request.uri.path == "/hook" else { return Response(status: .ok) }
            let port = self.port.withLock { $0 }
            return Response(
                status: answer.withLock { $0 }, headers: [.location: "http://127.0.0.1:\(port)/inside"])
        }

        var insideHits: [Hit] { hits.withLock { $0.filter { $0.path == "/inside" } } }
    }

    @Test(
        "a webhook receiver's 307 and 302 are failed attempts, retried; the redirect target is never called",
        arguments: [HTTPResponse.Status.temporaryRedirect, .found, .permanentRedirect, .seeOther])
    func webhookRedirectRefused(status: HTTPResponse.Status) async throws {
        let receiver = Receiver()
        receiver.answer.withLock { $0 = status }
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            receiver.port.withLock { $0 = port }
            // Loopback is allowed here, so what refuses the redirect is the redirect itself.
            let server = try await TestServer { $0.webhookAllowPrivateAddresses = true }
            let clock = server.clock
            try await server.run { api in
                let (shop, userID, _) = try await PartnerWebhookTests.partner(api, url: "http://127.0.0.1:\(port)/hook")
                let operation = try await PartnerWebhookTests.createOperation(api, as: shop, userID: userID)
                let canceled = try await api.client.execute(
                    uri: "/v1/operations/\(operation.operationId)", method: .delete, headers: PartnerWebhookTests.basic(shop))
                #expect(canceled.status == .ok)
                #expect(try await api.services.deliverWebhooks() == 1)
                clock.advance(by: 5)
                #expect(try await api.services.deliverWebhooks() == 1)

                #expect(receiver.hits.withLock { $0.filter { $0.path == "/hook" }.count } == 2)
                #expect(receiver.insideHits.isEmpty)
                let delivery = try #require(
                    try await api.services.store.dueWebhookDeliveries(now: clock.now() + 86_400, limit: 10).first)
                #expect(delivery.status == .pending)
                #expect(delivery.attempts == 2)
                #expect(delivery.lastHTTPStatus == Int(status.code))
            }
        }
    }

    @Test("a message gateway's redirect is a failed delivery; the redirect target is never called")
    func gatewayRedirectRefused() async throws {
        let receiver = Receiver()
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            receiver.port.withLock { $0 = port }
            let outbound = OutboundHTTP()
            let sender = WebhookMessageSender(url: try #require(URL(string: "http://127.0.0.1:\(port)/hook")), timeout: 120, outbound: outbound)
            let message = OutboundMessage(channel: .sms, to: "+33612345678", text: "Your code is 123456", sentAt: Date())
            let error = await #expect(throws: WebhookDeliveryError.self) { try await sender.send(message) }
            #expect(error?.status == 307)
            #expect(receiver.hits.withLock { $0.count } == 1)
            #expect(receiver.insideHits.isEmpty)
        }
    }

    @Test("a name is resolved once and the connection goes to the checked address, under the name's Host")
    func connectsToTheCheckedAddress() async throws {
        let receiver = Receiver()
        receiver.answer.withLock { $0 = .noContent }
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let lookups = Mutex<[String]>([])
            // `.invalid` names never resolve in the DNS: only this resolver's answer can be used.
            let outbound = OutboundHTTP { name in
                lookups.withLock { $0.append(name) }
                switch name {
                case "hooks.shop.invalid": return [[127, 0, 0, 1]]
                case "mixed.shop.invalid": return [[93, 184, 216, 34], [10, 0, 0, 7]]
                default: return []
                }
            }
            let status = try await outbound.post(
                try #require(URL(string: "http://hooks.shop.invalid:\(port)/hook")), headers: [], body: Array("{}".utf8),
                timeout: .seconds(120), for: .messageGateway)
            #expect(status == 204)
            #expect(receiver.hits.withLock { $0 } == [Receiver.Hit(method: "POST", path: "/hook", host: "hooks.shop.invalid:\(port)")])
            #expect(lookups.withLock { $0 } == ["hooks.shop.invalid"])

            // One refused address among public ones refuses the request before any connection.
            await #expect(throws: OutboundRefusal.address(.privateUse)) {
                try await outbound.post(
                    try #require(URL(string: "http://mixed.shop.invalid:\(port)/hook")), headers: [], body: [],
                    timeout: .seconds(120), for: .messageGateway, refusing: { SpecialPurposeAddress.kind(of: $0) })
            }
            // A name that does not resolve fails; it is not let through unchecked.
            await #expect(throws: OutboundRefusal.unresolved) {
                try await outbound.post(
                    try #require(URL(string: "http://nowhere.shop.invalid:\(port)/hook")), headers: [], body: [],
                    timeout: .seconds(120), for: .messageGateway, refusing: { SpecialPurposeAddress.kind(of: $0) })
            }
            #expect(receiver.hits.withLock { $0.count } == 1)
        }
    }

    @Test("an address is written as the literal the connection is made to")
    func addressLiterals() {
        #expect(OutboundHTTP.literal([127, 0, 0, 1]) == "127.0.0.1")
        #expect(OutboundHTTP.literal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]) == "::1")
        #expect(OutboundHTTP.literal([1, 2, 3]) == nil)
    }
}
