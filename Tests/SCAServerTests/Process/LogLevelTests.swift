import Foundation
import SCACore
import SCAEngine
import Testing

/// `--log-level` / `SCA_LOG_LEVEL` / `logLevel`.
@Suite("Log level: configurable, info by default, refused when unknown")
struct LogLevelTests {
    @Test("every swift-log level is accepted from each source, in any case; default info; others refused")
    func configuration() throws {
        let loader = ConfigurationLoader()
        #expect(try loader.load(file: nil, environment: [:], flags: [:]).logLevel == "info")
        #expect(ConfigurationLoader.environmentName(of: "logLevel") == "SCA_LOG_LEVEL")
        for level in ["trace", "debug", "info", "notice", "warning", "error", "critical"] {
            #expect(try loader.load(file: nil, environment: ["SCA_LOG_LEVEL": level.uppercased()], flags: [:]).logLevel == level)
            #expect(try loader.load(file: nil, environment: [:], flags: ["logLevel": level]).logLevel == level)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sca-log-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"logLevel": "warning"}"#.utf8).write(to: file)
        #expect(try loader.load(file: file.path, environment: [:], flags: [:]).logLevel == "warning")
        #expect(try loader.load(file: file.path, environment: ["SCA_LOG_LEVEL": "debug"], flags: [:]).logLevel == "debug")
        for wrong in ["verbose", "", "warn", "5"] {
            #expect(throws: ConfigurationError.self, "\(wrong)") {
                try loader.load(file: nil, environment: ["SCA_LOG_LEVEL": wrong], flags: [:])
            }
        }
    }

    @Test("sca-server serve logs from the configured level and refuses an unknown one at start-up")
    func serveProcess() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sca-loglevel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }

        let refused = try ServeProcess(directory: root.appendingPathComponent("bad"), environment: ["SCA_LOG_LEVEL": "loud"])
        #expect(await refused.waitForExit() != 0)
        #expect(refused.log.contains("logLevel"))

        // Hummingbird says "Server started" at info: present by default, absent from warning up.
        for (level, shown) in [(nil, true), ("warning", false)] as [(String?, Bool)] {
            let environment = level.map { ["SCA_LOG_LEVEL": $0] } ?? [:]
            let server = try ServeProcess(directory: root.appendingPathComponent(level ?? "default"), environment: environment)
            _ = try await server.port()
            await server.stop()
            #expect(server.log.contains("Server started") == shown, "\(level ?? "default"): \(server.log.suffix(500))")
        }
    }
}
