import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import ServiceLifecycle
import Synchronization
import Testing

/// Messages to users are delivered in the background: no answer waits for the
/// gateway, a refused message is tried again, and one given up is audited, never told.
// The time limit stops a delivery that never happens; the whole suite on two cores has taken
// over two minutes for one of these.
@Suite("Message delivery: in the background, retried, bounded, audited", .timeLimit(.minutes(10)))
struct MessageDeliveryTests {
    /// A stand-in SMS / mail / push gateway on loopback that can hold its replies until the test
    /// releases them, and refuse a number of messages first.
    final class HeldGateway: Sendable {
        struct State {
            /// Every POST, in order of arrival (before any hold).
            var received: [OutboundMessage] = []
            /// The messages answered 2xx.
            var delivered: [OutboundMessage] = []
            var held = false
            var failuresLeft = 0
            var holding: [CheckedContinuation<Void, Never>] = []
            var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        }

        let state = Mutex(State())

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("messages") { request, context -> HTTPResponse.Status in
                let message = try await request.decode(as: OutboundMessage.self, context: context)
                let woken = self.state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.received.append(message)
                    let count = state.received.count
                    let ready = state.arrivalWaiters.filter { $0.count <= count }.map(\.continuation)
                    state.arrivalWaiters.removeAll { $0.count <= count }
                    return ready
                }
                for waiter in woken { waiter.resume() }
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let wait = self.state.withLock { state -> Bool in
                        guard state.held else { return false }
                        state.holding.append(continuation)
                        return true
                    }
                    if !wait { continuation.resume() }
                }
                return self.state.withLock { state -> HTTPResponse.Status in
                    if state.failuresLeft > 0 {
                        state.failuresLeft -= 1
                        return .internalServerError
                    }
                    state.delivered.append(message)
                    return .accepted
                }
            }
            return router
        }

        func hold() { state.withLock { $0.held = true } }

        func release() {
            let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.held = false
                defer { state.holding = [] }
                return state.holding
            }
            for continuation in held { continuation.resume() }
        }

        func fail(_ count: Int) { state.withLock { $0.failuresLeft = count } }

        /// Returns once `count` messages have reached the gateway (answered or not).
        func arrivals(_ count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard state.received.count < count else { return true }
                    state.arrivalWaiters.append((count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        var received: [OutboundMessage] { state.withLock { $0.received } }
        var delivered: [OutboundMessage] { state.withLock { $0.delivered } }
    }

    /// Runs `body` with a test server whose messages go to `gateway` (codes and pushes alike).
    static func withGateway(
        _ gateway: HeldGateway, _ customize: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (APIClient) async throws -> Void
    ) async throws {
        let app = Application(router: gateway.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer {
                $0.messageSender = .webhook
                $0.webhookURL = "http://127.0.0.1:\(port)/messages"
                $0.pushGatewayURL = "http://127.0.0.1:\(port)/messages"
                $0.messageRetryBackoff = 0.001
                // A held reply must not time out, however slow the machine: it would be retried.
                $0.messageGatewayTimeout = 600
                customize(&$0)
            }
            try await server.run(body)
        }
    }

    static func failures(_ api: APIClient) async throws -> [AuditEntryDraft] {
        try await api.services.store.auditEntries(after: 0, limit: 10_000).map(\.draft)
            .filter { $0.event == "message.delivery_failed" }
    }

    @Test("a code, a lockout alert and a push are answered while the gateway holds its reply; they arrive after it")
    func answersDoNotWaitForTheGateway() async throws {
        let gateway = HeldGateway()
        try await Self.withGateway(gateway, {
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
            $0.lockout.maxFailedAttempts = 1
            $0.lockout.maxTemporaryBlocks = 0
        }) { api in
            _ = try await api.createUser("held@example.com", phone: "+33612345619")
            gateway.hold()

            // A code: the answer comes while the gateway has not answered (it cannot: it is held).
            let challenge = try await api.startChallenge(email: "held@example.com")
            let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(sent.status == 202)
            #expect(gateway.delivered.isEmpty)

            // A lockout alert (a permanent block at the first failure): e-mail and SMS.
            let blocked = try await api.startChallenge(email: "held@example.com")
            let refused = try await api.prove(blocked.challengeId, .password, "wrong password!")
            #expect(refused.status == 401 || refused.status == 423)
            #expect(gateway.delivered.isEmpty)

            // A push notification of an operation.
            let (userID, _) = try await api.userWithPhone("pushed@example.com")
            let created = try await api.createOperation(OperationFlowTests.paymentRequest(userID))
            #expect(created.status == 201)
            #expect(gateway.delivered.isEmpty)

            // Four, and the security alert of the phone bound for the push.
            await gateway.arrivals(5)
            #expect(gateway.delivered.isEmpty)
            gateway.release()
            await api.services.messages.waitUntilIdle()

            let delivered = gateway.delivered
            #expect(delivered.count == 5)
            #expect(delivered.contains { $0.channel == .email && $0.to == "pushed@example.com" && $0.text.contains("A new device") })
            #expect(delivered.contains { $0.channel == .sms && $0.to == "+33612345619" && $0.text.contains("is your code") })
            #expect(delivered.contains { $0.channel == .email && $0.to == "held@example.com" && $0.text.contains("blocked") })
            #expect(delivered.contains { $0.channel == .sms && $0.to == "+33612345619" && $0.text.contains("blocked") })
            #expect(delivered.contains { $0.channel == .push && $0.operationId != nil })
            #expect(try await Self.failures(api).isEmpty)
        }
    }

    @Test("a gateway that refuses twice then accepts gets the code once, on the third attempt; nothing is audited")
    func retriedUntilDelivered() async throws {
        let gateway = HeldGateway()
        gateway.fail(2)
        try await Self.withGateway(gateway, { $0.messageDeliveryAttempts = 3 }) { api in
            _ = try await api.createUser("retry@example.com", phone: "+33612345620")
            let challenge = try await api.startChallenge(email: "retry@example.com")
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            await api.services.messages.waitUntilIdle()
            #expect(gateway.received.count == 3)
            #expect(gateway.delivered.count == 1)
            #expect(try await Self.failures(api).isEmpty)
        }
    }

    @Test("a gateway that always refuses: the answer is the normal 202, and one message.delivery_failed after the attempts")
    func givenUpAndAudited() async throws {
        let gateway = HeldGateway()
        gateway.fail(1_000)
        try await Self.withGateway(gateway, { $0.messageDeliveryAttempts = 4 }) { api in
            let userID = try await api.createUser("down@example.com", phone: "+33612345621")
            let challenge = try await api.startChallenge(email: "down@example.com")
            let answer = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(answer.status == 202)
            #expect(try answer.decode(CodeSentResponse.self).sentTo == "+33*******21")
            await api.services.messages.waitUntilIdle()
            #expect(gateway.received.count == 4)
            #expect(gateway.delivered.isEmpty)

            let failures = try await Self.failures(api)
            #expect(failures.count == 1)
            let entry = try #require(failures.first)
            #expect(entry.outcome == "failed")
            #expect(entry.userID == userID)
            #expect(entry.challengeID == challenge.challengeId)
            #expect(entry.details["channel"] == "sms")
            #expect(entry.details["purpose"] == "code")
            #expect(entry.details["attempts"] == "4")
            // Never the text: the code is nowhere in the entry.
            let code = String(try #require(gateway.received.first).text.prefix(6))
            #expect(!entry.details.values.contains { $0.contains(code) })
            #expect(api.services.metrics.render().contains("sca_messages_undelivered_total{channel=\"sms\",reason=\"failed\"} 1"))
        }
    }

    @Test("a full queue drops the message, audited, and the answer is the same as for a queued one")
    func fullQueueDrops() async throws {
        let gateway = HeldGateway()
        gateway.hold()
        try await Self.withGateway(gateway, {
            $0.messageQueueLimit = 1
            $0.messageDeliveryConcurrency = 1
        }) { api in
            var challenges: [String] = []
            for index in 0..<3 {
                _ = try await api.createUser("queue\(index)@example.com", phone: "+3361234563\(index)")
                challenges.append(try await api.startChallenge(email: "queue\(index)@example.com").challengeId)
            }
            // The first is being sent (held at the gateway), the second waits, the third finds
            // the queue full.
            let first = try await api.sendCode(challenges[0], .smsOTP)
            await gateway.arrivals(1)
            let second = try await api.sendCode(challenges[1], .smsOTP)
            #expect(api.services.messages.waitingCount == 1)
            let third = try await api.sendCode(challenges[2], .smsOTP)
            for answer in [first, second, third] {
                #expect(answer.status == 202)
                #expect(Set(answer.json.keys) == ["sentTo", "resendAfter"])
            }
            gateway.release()
            await api.services.messages.waitUntilIdle()

            #expect(gateway.delivered.map(\.to) == ["+33612345630", "+33612345631"])
            let failures = try await Self.failures(api)
            #expect(failures.count == 1)
            #expect(failures.first?.outcome == "dropped")
            #expect(failures.first?.challengeID == challenges[2])
        }
    }

    @Test("attempts, back-off, queue and concurrency out of their ranges are refused at start-up")
    func boundsChecked() throws {
        for change in [
            { (configuration: inout ServerConfiguration) in configuration.messageDeliveryAttempts = 0 },
            { $0.messageDeliveryAttempts = 11 }, { $0.messageRetryBackoff = -1 }, { $0.messageRetryBackoff = .infinity },
            { $0.messageQueueLimit = 0 }, { $0.messageDeliveryConcurrency = 0 }, { $0.messageDeliveryConcurrency = 257 },
            { $0.messageGatewayTimeout = 0 }, { $0.messageGatewayTimeout = .nan },
        ] {
            var configuration = ServerConfiguration()
            change(&configuration)
            #expect(throws: ConfigurationError.self) { try configuration.validate() }
        }
        #expect(throws: Never.self) { try ServerConfiguration().validate() }
    }

    /// A server's services (not served: the test submits directly) whose messages go to `gateway`,
    /// with `MessageDeliveries` run in a service group of their own, as `serve` runs it.
    static func withDeliveryGroup(
        _ gateway: HeldGateway, drainTimeout: Duration,
        _ body: @escaping @Sendable (SCAServices, ServiceGroup) async throws -> Void
    ) async throws {
        let app = Application(router: gateway.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let server = try await TestServer {
                $0.messageSender = .webhook
                $0.webhookURL = "http://127.0.0.1:\(port)/messages"
                $0.messageDeliveryConcurrency = 1
                $0.messageGatewayTimeout = 600
            }
            defer { try? FileManager.default.removeItem(at: server.directory) }
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: [MessageDeliveries(dispatcher: server.services.messages, drainTimeout: drainTimeout)],
                gracefulShutdownSignals: [], logger: Logger(label: "test")))
            try await body(server.services, group)
        }
    }

    static func code(_ index: Int) -> QueuedMessage {
        QueuedMessage(
            OutboundMessage(channel: .sms, to: "+3361234564\(index)", text: "00000\(index) is your code", sentAt: Date()),
            purpose: .code, challengeID: "ch_\(index)")
    }

    @Test("a graceful shutdown delivers what is waiting, then takes no more (a later message is dropped, audited)")
    func shutdownDrains() async throws {
        let gateway = HeldGateway()
        gateway.hold()
        try await Self.withDeliveryGroup(gateway, drainTimeout: .seconds(60)) { services, group in
            async let running: Void = group.run()
            for index in 0..<3 { await services.messages.submit(Self.code(index)) }
            // One is being sent (held), two wait in the queue when the shutdown begins.
            await gateway.arrivals(1)
            #expect(services.messages.waitingCount == 2)
            await group.triggerGracefulShutdown()
            gateway.release()
            try await running
            #expect(gateway.delivered.count == 3)

            await services.messages.submit(Self.code(3))
            await services.messages.waitUntilIdle()
            let entries = try await services.store.auditEntries(after: 0, limit: 100).map(\.draft)
                .filter { $0.event == "message.delivery_failed" }
            #expect(entries.map(\.outcome) == ["dropped"])
            #expect(entries.first?.challengeID == "ch_3")
        }
    }

    @Test("the drain is bounded: a gateway that never answers does not hold the shutdown; its message is given up")
    func shutdownDrainIsBounded() async throws {
        let gateway = HeldGateway()
        gateway.hold()
        try await Self.withDeliveryGroup(gateway, drainTimeout: .milliseconds(200)) { services, group in
            async let running: Void = group.run()
            await services.messages.submit(Self.code(0))
            await gateway.arrivals(1)
            await group.triggerGracefulShutdown()
            try await running  // returns while the gateway still holds its reply
            #expect(gateway.delivered.isEmpty)
            await services.messages.waitUntilIdle()
            let entries = try await services.store.auditEntries(after: 0, limit: 100).map(\.draft)
                .filter { $0.event == "message.delivery_failed" }
            #expect(entries.map(\.outcome) == ["dropped"])
            gateway.release()
        }
    }
}
