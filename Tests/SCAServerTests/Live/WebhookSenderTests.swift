import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAServer
import Synchronization
import Testing

@Suite("Webhook sender: messages POSTed to a real gateway on loopback")
struct WebhookSenderTests {
    /// A stand-in SMS / mail gateway: records what it receives, fails when told to.
    final class Gateway: Sendable {
        let received = Mutex<[OutboundMessage]>([])
        let failing = Mutex(false)

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("messages") { request, context -> HTTPResponse.Status in
                let message = try await request.decode(as: OutboundMessage.self, context: context)
                self.received.withLock { $0.append(message) }
                return self.failing.withLock { $0 } ? .internalServerError : .accepted
            }
            return router
        }
    }

    @Test("a code for a payment reaches the gateway with amount and payee; a failing gateway still gives 202, and its failure is audited")
    func deliversAndReportsFailure() async throws {
        let gateway = Gateway()
        let app = Application(router: gateway.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer {
                $0.messageSender = .webhook
                $0.webhookURL = "http://127.0.0.1:\(port)/messages"
                $0.messageDeliveryAttempts = 2
                $0.messageRetryBackoff = 0.001
            }
            #expect(server.services.outbox == nil)
            try await server.run { api in
                _ = try await api.createUser("hook@example.com", phone: "+33612345619")
                let transaction = Transaction(
                    amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))
                let challenge = try await api.startChallenge(.payment, email: "hook@example.com", transaction: transaction)
                #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
                // Delivered in the background: wait for it, not for the answer.
                await api.services.messages.waitUntilIdle()
                let delivered = try #require(gateway.received.withLock { $0.last })
                #expect(delivered.channel == .sms)
                #expect(delivered.to == "+33612345619")
                #expect(delivered.text.contains("to pay €125.00 to ACME SAS, FR76…0189"))

                gateway.failing.withLock { $0 = true }
                api.clock.advance(by: 31)
                // The answer no longer tells a gateway's failure (a decoy, which sends
                // nothing, never fails): the normal 202, then the failure in the audit trail once
                // the attempts are spent.
                let failed = try await api.sendCode(challenge.challengeId, .smsOTP)
                #expect(failed.status == 202)
                await api.services.messages.waitUntilIdle()
                #expect(gateway.received.withLock { $0.count } == 1 + 2)
                let entries = try await api.services.store.auditEntries(after: 0, limit: 10_000).map(\.draft)
                    .filter { $0.event == "message.delivery_failed" }
                #expect(entries.count == 1)
                #expect(entries.first?.challengeID == challenge.challengeId)
                #expect(entries.first?.outcome == "failed")
            }
        }
    }
}
