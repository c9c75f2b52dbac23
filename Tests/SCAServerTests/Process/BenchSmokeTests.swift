import Foundation
import Testing

/// `sca-bench --smoke` as a real process for each flow: it starts its own server, runs a few full
/// flows through the SDK and prints its report as JSON on the last line. No figure is asserted
/// (machines differ): only that the report is there, complete, and without errors.
@Suite("sca-bench smoke runs")
struct BenchSmokeTests {
    /// `sca-bench`, built next to `sca` (`.build/<triple>/debug/`).
    static let binary: URL? = {
        guard let sca = TerminalAppProcess.binary else { return nil }
        let candidate = sca.deletingLastPathComponent().appendingPathComponent("sca-bench")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    @Test(
        "a smoke run completes its flows without errors and reports every figure",
        .enabled(if: binary != nil, "sca-bench not built"),
        arguments: ["manual", "cold-start", "payment"])
    func smokeRun(flow: String) async throws {
        let result = try await Self.run(["--smoke", "--json", "--flow", flow, "--concurrency", "2", "--scrypt", "test"])
        #expect(result.status == 0, "\(result.diagnostics)")
        let lastLine = try #require(result.stdout.split(separator: "\n").last, "\(result.diagnostics)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any], "\(result.diagnostics)")
        for key in ["flowsPerSecond", "p50Ms", "p90Ms", "p99Ms", "maxMs", "errors", "flows", "flow", "concurrency", "durationSeconds"] {
            #expect(report[key] != nil, "missing \(key): \(lastLine)")
        }
        #expect(report["flow"] as? String == flow)
        #expect((report["errors"] as? Int) == 0, "\(result.diagnostics)")
        #expect(((report["flows"] as? Int) ?? 0) > 0, "\(result.diagnostics)")
    }

    @Test(
        "a raw smoke run with --floor measures the trivial requests first and reports the ratio to them",
        .enabled(if: binary != nil, "sca-bench not built"),
        arguments: ["cold-start", "payment", "challenge"])
    func rawSmokeRunWithFloor(flow: String) async throws {
        let result = try await Self.run(["--smoke", "--json", "--mode", "raw", "--floor", "--flow", flow, "--concurrency", "2", "--scrypt", "test"])
        #expect(result.status == 0, "\(result.diagnostics)")
        let lastLine = try #require(result.stdout.split(separator: "\n").last, "\(result.diagnostics)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any], "\(result.diagnostics)")
        #expect(report["flow"] as? String == flow)
        #expect(report["mode"] as? String == "raw")
        #expect((report["errors"] as? Int) == 0, "\(result.diagnostics)")
        // 3 flows per client, 2 clients; the floor ran its 3 trivial requests per client too.
        #expect((report["flows"] as? Int) == 6, "\(result.diagnostics)")
        #expect((report["requestsPerFlow"] as? Int) == (flow == "challenge" ? 1 : 3))
        #expect(((report["floorRequestsPerSecond"] as? Double) ?? 0) > 0, "\(lastLine)")
        #expect(((report["floorRatio"] as? Double) ?? 0) > 0, "\(lastLine)")
        #expect(report["loadAverage"] != nil)
    }

    @Test("a paced raw run offers the rate it was given and no more", .enabled(if: binary != nil, "sca-bench not built"))
    func pacedRun() async throws {
        // 10 flows/s for 1 s from 2 clients: each client is due every 200 ms, so at most 10 flows
        // start; back to back, even a debug server creates far more challenges in a second.
        let result = try await Self.run([
            "--json", "--mode", "raw", "--flow", "challenge", "--rate", "10", "--duration", "1", "--concurrency", "2", "--scrypt", "test",
        ])
        #expect(result.status == 0, "\(result.diagnostics)")
        let lastLine = try #require(result.stdout.split(separator: "\n").last, "\(result.diagnostics)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any], "\(result.diagnostics)")
        #expect(report["offeredFlowsPerSecond"] as? Double == 10)
        #expect((report["errors"] as? Int) == 0, "\(result.diagnostics)")
        let flows = try #require(report["flows"] as? Int)
        #expect((1...10).contains(flows), "\(lastLine)")
    }

    @Test("--window places each flow in the window it ended in", .enabled(if: binary != nil, "sca-bench not built"))
    func windowedRun() async throws {
        // 20 flows/s for 1 s in windows of 0.25 s: every flow in exactly one window, in order.
        let result = try await Self.run([
            "--json", "--mode", "raw", "--flow", "challenge", "--rate", "20", "--duration", "1", "--window", "0.25",
            "--concurrency", "2", "--scrypt", "test",
        ])
        #expect(result.status == 0, "\(result.diagnostics)")
        let lastLine = try #require(result.stdout.split(separator: "\n").last, "\(result.diagnostics)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any], "\(result.diagnostics)")
        let windows = try #require(report["windows"] as? [[String: Any]], "\(lastLine)")
        #expect(windows.count >= 2, "\(lastLine)")
        #expect(windows.compactMap { $0["flows"] as? Int }.reduce(0, +) == report["flows"] as? Int, "\(lastLine)")
        let starts = windows.compactMap { $0["startSeconds"] as? Double }
        #expect(starts == starts.sorted() && Set(starts).count == starts.count, "\(lastLine)")
        #expect(starts.allSatisfy { ($0 * 4).rounded() == $0 * 4 }, "\(lastLine)")
        for window in windows {
            let p50 = try #require(window["p50Ms"] as? Double), p99 = try #require(window["p99Ms"] as? Double)
            let max = try #require(window["maxMs"] as? Double)
            #expect(p50 > 0 && p50 <= p99 && p99 <= max, "\(window)")
        }
    }

    @Test("--scrypt-bound verifies on every core and reports the rate", .enabled(if: binary != nil, "sca-bench not built"))
    func scryptBound() async throws {
        let result = try await Self.run(["--scrypt-bound", "--scrypt", "test", "--duration", "0.2", "--json"])
        #expect(result.status == 0, "\(result.diagnostics)")
        let lastLine = try #require(result.stdout.split(separator: "\n").last, "\(result.diagnostics)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any], "\(result.diagnostics)")
        #expect((report["threads"] as? Int) == ProcessInfo.processInfo.activeProcessorCount)
        let verifications = try #require(report["verifications"] as? Int)
        let seconds = try #require(report["seconds"] as? Double)
        #expect(verifications > 0 && seconds >= 0.2, "\(lastLine)")
        let rate = try #require(report["verificationsPerSecond"] as? Double)
        #expect(abs(rate - Double(verifications) / seconds) < 1e-6 * rate, "\(lastLine)")
        #expect((report["scrypt"] as? String)?.hasPrefix("test (N=2^4") == true)
    }

    @Test("--devices writes the raw clients' users and keys once, for later runs to pay as them", .enabled(if: binary != nil, "sca-bench not built"))
    func keptDevices() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sca-bench-devices-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            let result = try await Self.run(
                ["--smoke", "--mode", "raw", "--flow", "payment", "--concurrency", "2", "--scrypt", "test", "--devices", file.path])
            #expect(result.status == 0, "\(result.diagnostics)")
            let devices = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: String]])
            #expect(Set(devices.compactMap { $0["userID"] }).count == 2)
            #expect(devices.allSatisfy { $0["possession"] != nil && $0["biometry"] != nil && $0["deviceID"] != nil })
        }
    }

    @Test("the SDK mode refuses the raw-only flows and options, and bad figures are refused", .enabled(if: binary != nil, "sca-bench not built"))
    func refusals() async throws {
        for arguments in [
            ["--flow", "health"], ["--flow", "challenge"], ["--flow", "cold-start", "--floor"], ["--mode", "raw", "--flow", "manual"],
            ["--flow", "cold-start", "--rate", "5"], ["--mode", "raw", "--flow", "challenge", "--rate", "0"],
            ["--flow", "cold-start", "--window", "1"], ["--mode", "raw", "--flow", "challenge", "--window", "0"],
            ["--flow", "cold-start", "--server", "http://127.0.0.1:1", "--server", "http://127.0.0.1:2"],
            ["--flow", "cold-start", "--devices", "devices.json"],
        ] {
            let result = try await Self.run(["--smoke"] + arguments)
            #expect(result.status != 0, "\(arguments): \(result.diagnostics)")
        }
    }

    /// Runs `sca-bench <arguments>` without the developer's SCA_* settings: it starts its own server.
    static func run(_ arguments: [String]) async throws -> TerminalAppProcess.Result {
        guard let binary else { throw CocoaError(.fileNoSuchFile) }
        return try await TerminalAppProcess.run(
            executable: binary, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }, timeout: .seconds(120))
    }
}
