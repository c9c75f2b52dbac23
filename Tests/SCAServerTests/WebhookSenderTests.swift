import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
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

    @Test("a code for a payment reaches the gateway with amount and payee; a failing gateway gives 502")
    func deliversAndReportsFailure() async throws {
        let gateway = Gateway()
        let app = Application(router: gateway.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer {
                $0.messageSender = .webhook
                $0.webhookURL = "http://127.0.0.1:\(port)/messages"
            }
            #expect(server.services.outbox == nil)
            try await server.run { api in
                _ = try await api.createUser("hook@example.com", phone: "+33612345619")
                let transaction = Transaction(
                    amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))
                let challenge = try await api.startChallenge(.payment, email: "hook@example.com", transaction: transaction)
                #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
                let delivered = try #require(gateway.received.withLock { $0.last })
                #expect(delivered.channel == .sms)
                #expect(delivered.to == "+33612345619")
                #expect(delivered.text.contains("to pay 125.00 EUR to ACME SAS, FR76…0189"))

                gateway.failing.withLock { $0 = true }
                api.clock.advance(by: 31)
                let failed = try await api.sendCode(challenge.challengeId, .smsOTP)
                #expect(failed.status == 502)
                #expect(failed.problem?.code == .otpDeliveryFailed)
            }
        }
    }
}
