import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SCAClient
import SCACore
import SCAEngine
import SCAServer
import ServiceLifecycle
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// OpenTelemetry traces (`tracing.*`): a loopback collector inside the test receives what a real
/// server exports over OTLP/HTTP while the real SDK drives it.
@Suite("Traces")
struct TracingTests {
    static let password = "correct horse battery"
    static let pin = "482913"
    static let email = "alice@example.com"
    static let phone = "+33612345678"
    /// The caller's own trace, as a gateway or a partner's backend would send it.
    static let remoteTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let remoteSpanID = "00f067aa0ba902b7"
    static let traceparent = "00-\(remoteTraceID)-\(remoteSpanID)-01"

    @Test("a cold start's spans reach the collector: a span per request, store and hash spans its children, a caller's traceparent honoured and passed on, no secret in any")
    func coldStartSpans() async throws {
        let receiver = OTLPReceiver()
        let collector = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await collector.test(.live) { collectorClient in
            let port = try #require(collectorClient.port)
            var settings = TracingSettings()
            settings.enabled = true
            settings.endpoint = "http://127.0.0.1:\(port)/v1/traces"
            settings.encoding = .json
            let tracing = try ServerTracing.make(settings, logger: Logger(label: "sca-test-tracing"))
            let exporter = try #require(tracing.service)
            let server = try await TestServer(tracing: tracing.recorder) {
                $0.tracing = settings
                // Codes go to a gateway on loopback, so an outbound call is traced too.
                $0.messageSender = .webhook
                $0.webhookURL = "http://127.0.0.1:\(port)/gateway"
            }
            let handedOut = Mutex<[String]>([])
            let exporting = ServiceGroup(configuration: ServiceGroupConfiguration(services: [exporter], logger: Logger(label: "sca-test-tracing")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await exporting.run() }
                try await server.runLive { api, url in
                    try await api.services.withBackgroundServices(.messages) {
                        let secrets = try await Self.drive(api, url: url, receiver: receiver)
                        handedOut.withLock { $0 += secrets }
                    }
                }
                // A graceful shutdown sends what the batch processor still holds.
                await exporting.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            let arrived = try await receiver.wait { receiver in
                receiver.spans.contains { $0.name == "POST /v1/challenges/{id}/proofs" }
            }
            #expect(arrived, "no request span was exported")
            let typed = [Self.password, Self.pin, Self.email, Self.phone, "127.0.0.1"]
            try Self.checkSpans(receiver, secrets: typed + handedOut.withLock { $0 })
        }
    }

    /// An activation, a cold start with the device's keys, and a login with password and SMS
    /// code sent under a caller's `traceparent`.
    /// - Returns: the secrets the flow handed out (activation code, SMS code, tokens).
    static func drive(_ api: APIClient, url: URL, receiver: OTLPReceiver) async throws -> [String] {
        var secrets: [String] = []
        let userID = try await api.createUser(email, password: password, pin: pin, phone: phone)
        let client = SCAClient(
            server: url, keyStore: FileDeviceKeyStore(directory: FileManager.default.temporaryDirectory.appendingPathComponent("sca-tracing-\(UUID().uuidString)")),
            tokenStore: InMemoryTokenStore(), session: URLSession(configuration: .ephemeral), now: { api.clock.now() })
        let issued = try await api.services.devices.issueActivationCode(for: userID)
        secrets.append(issued.activationCode)
        _ = try await client.activateDevice(code: issued.activationCode, name: "Pixel of Alice")
        let coldStart = try await client.coldStart(using: ApprovingCollector())
        secrets.append(coldStart.accessToken)
        if let refresh = coldStart.refreshToken { secrets.append(refresh) }

        // A login under the caller's trace: password, then the SMS code the gateway received.
        let headers: HTTPFields = [.contentType: "application/json", HTTPField.Name("traceparent")!: traceparent]
        func post(_ path: String, _ value: some Encodable) async throws -> APIResponse {
            let response = try await api.client.execute(
                uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: try WireJSON.encoder().encode(value)))
            return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
        }
        let challenge = try await post(
            "/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: email))
        ).decode(ChallengeResponse.self)
        #expect(try await post("/v1/challenges/\(challenge.challengeId)/proofs", ProofRequest(method: .password, credential: password)).status == 200)
        let sent = try await post("/v1/challenges/\(challenge.challengeId)/otp", SendCodeRequest(method: .smsOTP))
        #expect((200..<300).contains(sent.status))
        // The code's message is the one sent in the caller's trace (the new device's alert came before).
        #expect(try await receiver.wait { $0.codePost != nil }, "the gateway received no code")
        let sms = try #require(receiver.codePost?.body)
        let message = try JSONSerialization.jsonObject(with: Data(sms.utf8)) as? [String: Any]
        // The code opens the message's text, as the development outbox shows it.
        let code = String(try #require(message?["text"] as? String).prefix(6))
        secrets.append(code)
        let completed = try await post("/v1/challenges/\(challenge.challengeId)/proofs", ProofRequest(method: .smsOTP, credential: code))
        #expect(completed.status == 200)
        for key in ["accessToken", "refreshToken"] {
            if let token = completed.json[key] as? String { secrets.append(token) }
        }
        return secrets
    }

    static func checkSpans(_ receiver: OTLPReceiver, secrets: [String]) throws {
        let spans = receiver.spans
        let byID = Dictionary(spans.map { ($0.spanID, $0) }) { first, _ in first }
        let names = Set(spans.map(\.name))
        for route in ["POST /admin/v1/users", "POST /v1/challenges", "POST /v1/challenges/{id}/proofs", "POST /v1/challenges/{id}/otp"] {
            #expect(names.contains(route), "no span \(route) among \(names.sorted())")
        }
        // Named after the route template, never the path with its ids.
        #expect(!names.contains { $0.contains("ch_") || $0.contains("usr_") }, "\(names.sorted())")
        for span in spans where span.kind == 2 {
            #expect(span.attributes["sca.request_id"] != nil, "\(span.name)")
            #expect(span.attributes["http.response.status_code"] != nil, "\(span.name)")
        }

        // Every child's parent was exported too, in the same trace: the request it served.
        for span in spans {
            guard let parentID = span.parentSpanID, span.traceID != remoteTraceID || parentID != remoteSpanID else { continue }
            let parent = try #require(byID[parentID], "the parent of \(span.name) was not exported")
            #expect(parent.traceID == span.traceID, "\(span.name)")
        }
        let storeSpans = spans.filter { $0.name.hasPrefix("store.") }
        #expect(storeSpans.contains { span in span.parentSpanID.flatMap { byID[$0] }?.kind == 2 }, "no store span under a request")
        for span in storeSpans {
            // Only inside a request's span: the start-up's and the sweeps' reads are not traced.
            #expect(span.parentSpanID != nil, "a store span without a parent: \(span.attributes)")
            #expect(span.attributes["sca.store.operation"]?.isEmpty == false, "\(span.attributes)")
            #expect(span.attributes["db.system.name"] == "sqlite")
        }
        let proofs = spans.filter { $0.name == "POST /v1/challenges/{id}/proofs" }
        let verifications = spans.filter { $0.name == "password.hash" && $0.attributes["sca.password.operation"] == "verify" }
        #expect(!verifications.isEmpty)
        for verification in verifications {
            let parent = try #require(verification.parentSpanID.flatMap { byID[$0] })
            #expect(parent.name == "POST /v1/challenges/{id}/proofs")
            #expect(parent.traceID == verification.traceID)
            #expect(verification.attributes["sca.password.matched"] == "1" || verification.attributes["sca.password.matched"] == "true")
        }
        let hashes = spans.filter { $0.name == "password.hash" && $0.attributes["sca.password.operation"] == "hash" }
        #expect(hashes.contains { $0.parentSpanID.flatMap { byID[$0] }?.name == "POST /admin/v1/users" })

        // The requests sent with a traceparent are children of the caller's span.
        let remote = spans.filter { $0.kind == 2 && $0.traceID == remoteTraceID }
        #expect(remote.count == 4, "\(remote.map(\.name))")
        for span in remote { #expect(span.parentSpanID == remoteSpanID, "\(span.name)") }
        #expect(proofs.contains { $0.traceID == remoteTraceID && $0.attributes["sca.challenge_id"]?.hasPrefix("ch_") == true })

        // The code's delivery, in the background, is still in the caller's trace, and the
        // gateway was told which span called it.
        let post = try #require(receiver.codePost)
        let header = try #require(post.traceparent, "the gateway's request had no traceparent")
        let parts = header.split(separator: "-").map(String.init)
        #expect(parts.count == 4)
        #expect(parts[1] == remoteTraceID)
        let outbound = try #require(byID[parts[2]], "the traceparent's span was not exported")
        #expect(outbound.name == "outbound.http")
        #expect(outbound.kind == 3)
        #expect(outbound.attributes["sca.outbound.purpose"] == "message_gateway")
        #expect(outbound.attributes["http.response.status_code"] != nil)
        #expect(outbound.parentSpanID.flatMap { byID[$0] }?.name == "POST /v1/challenges/{id}/otp")

        // Nothing a person typed or was given is in a span's name or attributes.
        for span in spans {
            for secret in secrets {
                #expect(!span.name.contains(secret), "span \(span.name) names a secret")
                for (key, value) in span.attributes {
                    #expect(!value.contains(secret), "\(span.name): \(key) holds a secret (\(secret.prefix(3))…)")
                }
            }
        }
        // Nor anywhere in what was sent, for the secrets long enough not to turn up by chance
        // among the digits of a timestamp.
        for export in receiver.exports {
            for secret in secrets where secret.count >= 12 {
                #expect(!export.contains(secret), "an export holds a secret (\(secret.prefix(3))…)")
            }
        }
    }

    @Test("tracing off: no tracer, no exporter, and the collector receives nothing")
    func offExportsNothing() async throws {
        let receiver = OTLPReceiver()
        let collector = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await collector.test(.live) { collectorClient in
            let port = try #require(collectorClient.port)
            var settings = TracingSettings()
            settings.endpoint = "http://127.0.0.1:\(port)/v1/traces"
            settings.encoding = .json
            let tracing = try ServerTracing.make(settings, logger: Logger(label: "sca-test-tracing"))
            #expect(tracing.service == nil)
            #expect(!tracing.recorder.isOn)
            let server = try await TestServer(tracing: tracing.recorder) { $0.tracing = settings }
            try await server.runLive { api, _ in
                _ = try await api.createUser(Self.email, password: Self.password, pin: Self.pin)
                let challenge = try await api.startChallenge(email: Self.email)
                #expect(try await api.prove(challenge.challengeId, .password, Self.password).status == 200)
                #expect(!api.services.engine.runtime.tracing.isOn)
            }
            // Nothing was made that could export later: the count is final.
            #expect(receiver.exports.isEmpty)
        }
    }
}

extension OTLPReceiver {
    /// The gateway's post made in the caller's trace: the SMS code.
    var codePost: GatewayPost? {
        gatewayPosts.first { $0.traceparent?.contains(TracingTests.remoteTraceID) == true }
    }
}
