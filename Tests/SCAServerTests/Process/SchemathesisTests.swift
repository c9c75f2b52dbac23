import Foundation
import SCACore
import Testing

/// openapi.yaml against the server as built: a bounded schemathesis run (from PyPI; `.ci/run`
/// installs the pinned version) against `sca-server serve --demo`, with every check: no server
/// error, no response outside the documented schemas and statuses, every request the schema
/// allows accepted and every one it forbids refused, `405` with `Allow` for other methods.
/// The formats the schema names beyond JSON Schema's (`display-text`, `iban`) are taught to it
/// by `Tests/SCAServerTests/Schemathesis/formats.py`; `schemathesis.toml` beside it names the
/// one operation whose valid requests no fuzzer can make, and why. Skipped, saying why, where
/// schemathesis is not installed.
@Suite("openapi.yaml holds against the running server (schemathesis)")
struct SchemathesisTests {
    static let adminKey = "schemathesis-admin-key-0123456789"

    /// The generators of the schema's own formats and the run's configuration, in the target's
    /// `Schemathesis` folder, one up from this file's `Process` folder.
    static let schemathesis = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schemathesis")
    static let formats = schemathesis.appendingPathComponent("formats.py")
    static let configuration = schemathesis.appendingPathComponent("schemathesis.toml")

    /// A rate for every currency the schema lists: a fraud report in a currency without one is
    /// refused, and which have one is the deployment's choice.
    static var exchangeRates: [String: String] {
        Dictionary(uniqueKeysWithValues: Currency.all.map(\.code).filter { $0 != "EUR" }.map { ("SCA_EXCHANGE_RATES_\($0)", "1") })
    }

    /// `SCA_TEST_SCHEMATHESIS`, else `schemathesis` on the PATH.
    static let executable: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["SCA_TEST_SCHEMATHESIS"], FileManager.default.isExecutableFile(atPath: configured) {
            return URL(fileURLWithPath: configured)
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("schemathesis")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    @Test(
        "every schemathesis check holds in a bounded run",
        .enabled(if: executable != nil, "schemathesis is not installed (pip install schemathesis; .ci/run does)"),
        .timeLimit(.minutes(8)))
    func contractHolds() async throws {
        let executable = try #require(Self.executable)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sca-schemathesis-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try ServeProcess(
            directory: root,
            environment: [
                "SCA_DEMO": "true", "SCA_ADMIN_KEY": Self.adminKey, "SCA_LOG_LEVEL": "warning",
                // Cheap hashing: the run is about the contract, not scrypt.
                "SCA_SCRYPT_LOG_N": "4", "SCA_SCRYPT_R": "1",
            ].merging(Self.exchangeRates) { $1 })
        let port = try await server.port()
        defer { Task { await server.stop() } }

        let report = root.appendingPathComponent("schemathesis.txt")
        _ = FileManager.default.createFile(atPath: report.path, contents: nil)
        let arguments = [
            "--config-file", Self.configuration.path,
            "run", "http://127.0.0.1:\(port)/openapi.yaml",
            "--checks", "all",
            "--phases", "examples,coverage,fuzzing",
            "--max-examples", "15", "--seed", "15", "--workers", "1",
            "--request-timeout", "10",
            "--suppress-health-check", "all",
            "--header", "Authorization: Bearer \(Self.adminKey)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["SCHEMATHESIS_HOOKS"] = Self.formats.path
        let reportHandle = try FileHandle(forWritingTo: report)
        let status = try await ChildProcess(
            executable, arguments: arguments, environment: environment, directory: root, standardInput: .null,
            standardOutput: .file(reportHandle), standardError: .file(reportHandle), killAfter: .seconds(420)
        ).status()
        await server.stop()

        let output = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        #expect(status == 0, "schemathesis found failures:\n\(output.suffix(6_000))")
        #expect(!server.log.contains("unhandled error"), "\(server.log.suffix(2_000))")
    }
}
