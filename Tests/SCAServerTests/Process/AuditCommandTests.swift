import Foundation
import SCACore
import SCAEngine
import SCAServer
import Testing

@Suite("sca-server audit, as a process")
struct AuditCommandTests {
    /// `sca-server` next to the `sca` the terminal-app tests find, or nil when not built.
    static let binary: URL? = TerminalAppProcess.binary.map {
        $0.deletingLastPathComponent().appendingPathComponent("sca-server")
    }.flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil }

    @Test("verify reports an intact chain with exit 0; export writes one JSON line per entry")
    func verifyAndExport() async throws {
        let binary = try #require(Self.binary, "build sca-server first (swift build --build-tests)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-audit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = .insecureFastForTesting
        let services = try await SCAServices.make(configuration: configuration)
        let user = try await services.users.create(CreateUserRequest(email: "proc@example.com", password: "correct horse battery"))
        try await services.users.unblock(userID: user.id)

        let verify = try await Self.run(binary, ["audit", "verify", "--data-dir", directory.path])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains("audit chain intact: 2 entries"))

        let export = try await Self.run(binary, ["audit", "export", "--data-dir", directory.path, "--since", "2000-01-01T00:00:00Z"])
        #expect(export.status == 0)
        let lines = export.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""event":"admin.user_created""#) == true)
        #expect(lines.allSatisfy { $0.contains(#""hash":""#) })

        #expect(try await Self.run(binary, ["audit", "export", "--data-dir", directory.path, "--since", "yesterday"]).status != 0)
    }

    /// Runs the binary to the end, awaited (``ChildProcess/run``): never waited for on a thread
    /// of the cooperative pool that the other tests run on.
    static func run(_ binary: URL, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let run = try await ChildProcess.run(binary, arguments: arguments)
        return (run.status, run.outputText)
    }
}
