import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import NIOSSL
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Synchronization
import Testing

/// The audit trail streamed to a SIEM as it is written: at least once, in order, each entry with
/// its chain hash, to a signed HTTPS endpoint or a syslog collector over TLS.
@Suite("Audit streaming")
struct AuditStreamTests {
    static let secret = "a-siem-secret-of-at-least-32-characters"

    /// An HTTPS-sink stand-in on loopback: records each body with its signature headers, and
    /// answers `answer`.
    final class Collector: Sendable {
        struct Batch: Sendable {
            var body: [UInt8]
            var timestamp: String?
            var signature: String?
        }
        let batches = Mutex<[Batch]>([])
        let answer = Mutex<HTTPResponse.Status>(.ok)

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("siem") { request, _ in
                let body = Array(buffer: try await request.body.collect(upTo: 1 << 22))
                let status = self.answer.withLock { $0 }
                if status == .ok {
                    self.batches.withLock {
                        $0.append(Batch(
                            body: body, timestamp: request.headers[HTTPField.Name("SCA-Webhook-Timestamp")!],
                            signature: request.headers[HTTPField.Name("SCA-Webhook-Signature")!]))
                    }
                }
                return Response(status: status)
            }
            return router
        }

        /// The entries received, in order of arrival, as (sequence, hash).
        var received: [(Int64, String)] {
            batches.withLock { $0 }.flatMap { batch in
                batch.body.split(separator: UInt8(ascii: "\n")).compactMap { line -> (Int64, String)? in
                    guard case .object(let members) = try? JSONDecoder().decode(JSONValue.self, from: Data(line)),
                        case .number(let sequence)? = members["sequence"], case .string(let hash)? = members["hash"]
                    else { return nil }
                    return (Int64(sequence), hash)
                }
            }
        }
    }

    static func failLogin(_ api: APIClient, _ email: String, times: Int) async throws {
        let challenge = try await api.startChallenge(email: email)
        for _ in 0..<times { try await api.prove(challenge.challengeId, .password, "wrong password!") }
    }

    @Test("HTTPS: every entry once the sink answers 2xx, in order, with its chain hash and a valid signature; a refused batch is sent again; a lockout follows at the next pass")
    func httpsStream() async throws {
        let collector = Collector()
        let app = Application(router: collector.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await TestServer {
                $0.auditStreamURL = "http://127.0.0.1:\(port)/siem"
                $0.auditStreamSecret = Self.secret
                // Each wrong password counts at once, so five make a lockout.
                $0.policies[.login] = OperationPolicy(verdict: .immediate)
            }.run { api in
                let stream = try #require(api.services.engine.auditStream)
                let totp = try await api.enrollTOTP(try await api.createUser("stream@example.com"))
                _ = try await api.logIn("stream@example.com", totp: totp)

                // The SIEM is down: nothing counts as sent.
                collector.answer.withLock { $0 = .serviceUnavailable }
                await #expect(throws: AuditSinkRefusal.self) { try await stream.pass() }
                collector.answer.withLock { $0 = .ok }
                let written = try await api.services.store.auditEntries(after: 0, limit: 1_000)
                #expect(try await stream.pass() == written.count)
                #expect(collector.received.map(\.0) == written.map(\.sequence))
                #expect(collector.received.map(\.1) == written.map(\.hash))
                #expect(try await stream.pass() == 0)

                for batch in collector.batches.withLock({ $0 }) {
                    let timestamp = try #require(batch.timestamp.flatMap(Int.init))
                    #expect(batch.signature == WebhookSignature.sign(body: batch.body, timestamp: timestamp, secret: Self.secret))
                }

                // A lockout goes out at the next pass, after everything before it.
                try await Self.failLogin(api, "stream@example.com", times: 5)
                #expect(try await stream.pass() > 0)
                let all = try await api.services.store.auditEntries(after: 0, limit: 1_000)
                #expect(collector.received.map(\.0) == all.map(\.sequence))
                #expect(all.contains { $0.draft.event == "user.locked" })

                // Another instance on the same database waits while this one holds the lease.
                let other = AuditStream(context: api.services.engine.context, sink: stream.sink, instance: "ins_other")
                _ = try await api.createUser("more@example.com")
                #expect(try await other.pass() == 0)
                #expect(try await stream.pass() > 0)
                #expect(collector.received.map(\.0) == (try await api.services.store.auditEntries(after: 0, limit: 1_000)).map(\.sequence))
            }
        }
    }

    /// A syslog collector stand-in: TLS with a certificate of `authority`, every byte kept.
    final class SyslogCollector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let bytes = Mutex<[UInt8]>([])

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            bytes.withLock { $0 += Array(buffer.readableBytesView) }
        }

        /// The octet-counted messages received so far.
        var messages: [String] {
            var rest = bytes.withLock { $0 }[...]
            var messages: [String] = []
            while let space = rest.firstIndex(of: UInt8(ascii: " ")),
                let length = Int(String(decoding: rest[rest.startIndex..<space], as: UTF8.self)),
                rest.distance(from: space, to: rest.endIndex) > length
            {
                let start = rest.index(after: space)
                let end = rest.index(start, offsetBy: length)
                messages.append(String(decoding: rest[start..<end], as: UTF8.self))
                rest = rest[end...]
            }
            return messages
        }

        static func listen(_ server: TestCertificateAuthority.Issued, collector: SyslogCollector) async throws -> any Channel {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(server.certificatePEM.utf8), format: .pem))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(server.keyPEM.utf8), format: .pem)))
            configuration.minimumTLSVersion = .tlsv12
            let context = try NIOSSLContext(configuration: configuration)
            return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try channel.pipeline.syncOperations.addHandler(collector)
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
        }
    }

    /// A server streaming to the collector listening on `channel`, trusting `caFile`'s authorities.
    static func syslogServer(_ channel: any Channel, caFile: String) async throws -> TestServer {
        try await TestServer {
            $0.auditStreamURL = "syslog+tls://localhost:\(channel.localAddress?.port ?? 0)"
            $0.auditStreamCAFile = caFile
        }
    }

    @Test("syslog over TLS: RFC 5424 messages, octet-counted, one per entry in order with its hash; a collector whose certificate the CA file does not vouch for gets nothing")
    func syslogStream() async throws {
        let authority = try TestCertificateAuthority(name: "SIEM test CA")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-syslog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let caFile = directory.appendingPathComponent("ca.pem").path
        try Data(authority.certificatePEM.utf8).write(to: URL(fileURLWithPath: caFile))

        // A collector with a certificate of another authority is refused, and nothing counts.
        let stranger = try TestCertificateAuthority(name: "Someone else")
        let impostor = SyslogCollector()
        let impostorChannel = try await SyslogCollector.listen(try stranger.issueServer(), collector: impostor)
        try await Self.syslogServer(impostorChannel, caFile: caFile).run { api in
            _ = try await api.createUser("syslog@example.com")
            let stream = try #require(api.services.engine.auditStream)
            await #expect(throws: (any Error).self) { try await stream.pass() }
            #expect(impostor.messages.isEmpty)
            let state = try await api.services.store.riskState(key: AuditStreamState.keyPrefix, as: AuditStreamState.self)
            #expect(state.sent == 0)
        }
        try await impostorChannel.close()

        let collector = SyslogCollector()
        let channel = try await SyslogCollector.listen(try authority.issueServer(), collector: collector)
        try await Self.syslogServer(channel, caFile: caFile).run { api in
            let stream = try #require(api.services.engine.auditStream)
            _ = try await api.createUser("syslog@example.com")
            try await Self.failLogin(api, "syslog@example.com", times: 5)
            let written = try await api.services.store.auditEntries(after: 0, limit: 1_000)
            #expect(try await stream.pass() == written.count)
            let deadline = ContinuousClock.now + .seconds(30)
            while collector.messages.count < written.count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let messages = collector.messages
            #expect(messages.count == written.count)
            for (message, entry) in zip(messages, written) {
                #expect(message.hasPrefix("<86>1 ") || message.hasPrefix("<84>1 "), "\(message)")
                #expect(message.contains(" sca-server - \(entry.draft.event) - {"))
                #expect(message.contains("\"sequence\":\(entry.sequence),"))
                #expect(message.contains("\"hash\":\"\(entry.hash)\""))
            }
            // A refusal is a warning (severity 4), the rest informational.
            let rejected = try #require(zip(messages, written).first { $0.1.draft.outcome == "rejected" })
            #expect(rejected.0.hasPrefix("<84>1 "))
        }
        try await channel.close()
    }
}
