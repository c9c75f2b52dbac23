import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SCACore
import SCAServer
import Testing

/// Per-request events (a challenge made, a proof evaluated, a challenge completed, a code sent)
/// are logged at `debug`: at the default `info` a busy server wrote a line per request to
/// standard output. Lockouts and errors stay at `notice` and above.
@Suite("Logging: per-request events at debug")
struct HotPathLoggingTests {
    static let perRequestMessages: Set<String> = ["challenge created", "proof evaluated", "challenge completed", "code sent"]

    @Test("every per-request event of every flow is logged at debug, none at info or above")
    func perRequestEventsAtDebug() async throws {
        let capture = LogCapture()
        let server = try await TestServer(logger: capture.logger(label: "sca-server", metadataProvider: .requestInfo))
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let app = Application(router: server.services.router(), logger: capture.logger(label: "hummingbird"))
        try await app.test(.router) { client in
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            try await LoggingTests.runEveryFlow(api, secrets: SecretList())
        }
        let perRequest = capture.captured.filter { Self.perRequestMessages.contains($0.message) }
        // Each kind was seen, so the check below is not vacuous.
        #expect(Set(perRequest.map(\.message)) == Self.perRequestMessages)
        for line in perRequest {
            #expect(line.level == .debug, "\(line.rendered)")
        }
        // A lockout is still worth a line at the default level.
        let lockouts = capture.captured.filter { $0.message.contains("blocked") }
        for line in lockouts { #expect(line.level >= .info, "\(line.rendered)") }
    }
}
