import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAServer
import Synchronization
import Testing

/// The `push` channel: a new operation is pushed to the bound device, to the outbox
/// in development and to the configured push gateway with the webhook sender.
@Suite("Push notifications of operations")
struct OperationPushTests {
    /// A stand-in push gateway on loopback: records what it receives, fails when told to.
    final class PushGateway: Sendable {
        let received = Mutex<[OutboundMessage]>([])
        let failing = Mutex(false)

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("push") { request, context -> HTTPResponse.Status in
                let message = try await request.decode(as: OutboundMessage.self, context: context)
                self.received.withLock { $0.append(message) }
                return self.failing.withLock { $0 } ? .internalServerError : .accepted
            }
            router.post("sms") { _, _ -> HTTPResponse.Status in .accepted }
            return router
        }
    }

    @Test("the outbox records {channel: push, to: deviceId, operationId, text}")
    func outbox() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let created = try await api.createOperation(OperationFlowTests.paymentRequest(userID)).decode(OperationResponse.self)
            let pushed = try #require(try api.services.outbox?.messages().last)
            #expect(pushed.channel == .push)
            #expect(pushed.to == phone.device.deviceID)
            #expect(pushed.operationId == created.operationId)
            #expect(pushed.text == "Approve paying €125.00 to ACME SAS?")
        }
    }

    @Test("the webhook sender forwards pushes to the push gateway; a failing gateway does not fail the operation")
    func gateway() async throws {
        let gateway = PushGateway()
        let app = Application(router: gateway.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer {
                $0.messageSender = .webhook
                $0.webhookURL = "http://127.0.0.1:\(port)/sms"
                $0.pushGatewayURL = "http://127.0.0.1:\(port)/push"
                $0.messageDeliveryAttempts = 1  // one POST per push, so the count below is exact
            }
            try await server.run { api in
                let (userID, phone) = try await api.userWithPhone("alice@example.com")
                let created = try await api.createOperation(OperationFlowTests.paymentRequest(userID)).decode(OperationResponse.self)
                // Pushed in the background.
                await api.services.messages.waitUntilIdle()
                let pushed = try #require(gateway.received.withLock { $0.last })
                #expect(pushed.channel == .push)
                #expect(pushed.to == phone.device.deviceID)
                #expect(pushed.operationId == created.operationId)

                gateway.failing.withLock { $0 = true }
                let second = try await api.createOperation(OperationFlowTests.paymentRequest(userID))
                #expect(second.status == 201)
                await api.services.messages.waitUntilIdle()
                #expect(gateway.received.withLock { $0.count } == 2)
                #expect(try await phone.pending().count == 2)
            }
        }
    }

    @Test("a pushGatewayURL that is not http or https is a configuration error")
    func badURL() async throws {
        await #expect(throws: ConfigurationError.self) {
            _ = try await TestServer { $0.pushGatewayURL = "ftp://push.example" }
        }
    }
}
