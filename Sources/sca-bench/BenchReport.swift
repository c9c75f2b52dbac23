import Foundation

/// The figures of one run, as text for a person or one JSON line for a script.
struct BenchReport: Codable, Sendable {
    var flow: String
    /// `in-process` or the server's URL.
    var server: String
    /// The in-process server's scrypt parameters; nil against a remote server (unknown here).
    var scrypt: String?
    var concurrency: Int
    /// Wall time from the first flow to the last token.
    var durationSeconds: Double
    var flows: Int
    var flowsPerSecond: Double
    var p50Ms: Double
    var p90Ms: Double
    var p99Ms: Double
    var maxMs: Double
    var errors: Int
    /// Manual logins only: users per client, and how often a client waited for a fresh TOTP step.
    var usersPerClient: Int?
    var poolWaits: Int?
    var serverCryptography: String
    /// `sdk` or `raw` (``RawClient``).
    var mode = "sdk"
    /// Raw mode: HTTP requests per flow.
    var requestsPerFlow: Int?
    /// With `--floor`: trivial requests per second by the same client at the same concurrency,
    /// measured just before, and this run's flows/s ÷ (that ÷ ``requestsPerFlow``).
    var floorRequestsPerSecond: Double?
    var floorRatio: Double?
    var floorLoadAverage: String?
    /// The 1-minute load average at the start and at the end of the run.
    var loadAverage: String?
    /// With `--rate`: the flows per second offered. Latencies then count from when each flow was
    /// due, so a server that cannot keep up shows it in p99 rather than in a lower offered rate.
    var offeredFlowsPerSecond: Double?
    /// With `--window`: the flows that ended in each window, in order (a long run's tail, placed in time).
    var windows: [LatencyWindow]?

    init(flow: BenchFlow, server: String, scrypt: String?, concurrency: Int, usersPerClient: Int?, tally: ClientTally, elapsed: Duration) {
        self.flow = flow.rawValue
        self.server = server
        self.scrypt = scrypt
        self.concurrency = concurrency
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        durationSeconds = Self.rounded(seconds, places: 3)
        flows = tally.flows
        flowsPerSecond = seconds > 0 ? Self.rounded(Double(tally.flows) / seconds, places: 2) : 0
        // Recorded in microseconds: three decimals of a millisecond keep all of it.
        func milliseconds(_ microseconds: UInt64) -> Double {
            tally.flows == 0 ? 0 : Self.rounded(Double(microseconds) / 1000, places: 3)
        }
        p50Ms = milliseconds(tally.latencies.valueAtPercentile(50))
        p90Ms = milliseconds(tally.latencies.valueAtPercentile(90))
        p99Ms = milliseconds(tally.latencies.valueAtPercentile(99))
        maxMs = milliseconds(tally.latencies.max)
        errors = tally.errors
        self.usersPerClient = usersPerClient
        poolWaits = flow == .manual ? tally.poolWaits : nil
        serverCryptography = flow.serverCryptography
    }

    /// Sets the floor and the ratio against it.
    mutating func setFloor(requestsPerSecond: Double, loadAverage: String?) {
        floorRequestsPerSecond = requestsPerSecond
        floorLoadAverage = loadAverage
        let perFlow = Double(requestsPerFlow ?? 1)
        floorRatio = requestsPerSecond > 0 ? Self.rounded(flowsPerSecond / (requestsPerSecond / perFlow), places: 4) : nil
    }

    /// One line of JSON with sorted keys.
    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A few aligned lines.
    func text(flowSummary: String) -> String {
        var lines = [
            "flow          \(flowSummary)",
            "server        \(server)\(scrypt.map { ", scrypt \($0)" } ?? "")",
            "clients       \(concurrency)\(usersPerClient.map { " (\($0) users each)" } ?? "")",
            "duration      \(String(format: "%.2f", durationSeconds)) s",
            "flows         \(flows) = \(String(format: "%.2f", flowsPerSecond)) flows/s, errors \(errors)",
            "latency (ms)  p50 \(format(p50Ms))  p90 \(format(p90Ms))  p99 \(format(p99Ms))  max \(format(maxMs))",
            "server crypto \(serverCryptography)",
        ]
        lines[2] += " (\(mode) mode\(requestsPerFlow.map { ", \($0) requests per flow" } ?? ""))"
        if let offeredFlowsPerSecond {
            lines.append("offered       \(String(format: "%.1f", offeredFlowsPerSecond)) flows/s (--rate; latency from when each flow was due)")
        }
        if let loadAverage { lines.append("load average  \(loadAverage)") }
        if let floorRequestsPerSecond, let floorRatio {
            let perFlow = requestsPerFlow ?? 1
            lines.append(
                "floor         \(String(format: "%.1f", floorRequestsPerSecond)) trivial requests/s (load \(floorLoadAverage ?? "?")) → "
                    + "\(String(format: "%.1f", floorRequestsPerSecond / Double(perFlow))) flows/s if a flow cost its \(perFlow) round trips")
            lines.append("ratio         \(String(format: "%.1f", floorRatio * 100)) % of the floor")
        }
        for window in windows ?? [] {
            lines.append(
                "window        \(String(format: "%6.0f", window.startSeconds)) s  flows \(window.flows)  p50 \(format(window.p50Ms))  "
                    + "p99 \(format(window.p99Ms))  max \(format(window.maxMs))")
        }
        if let poolWaits, poolWaits > 0 {
            lines.append("pool waits    \(poolWaits): clients waited for a fresh TOTP step; raise --users-per-client")
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }

    private static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
