import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SCACore

/// The raw mode: ``RawClient``s over one keep-alive `HTTPClient` with a connection per simulated
/// user, and with `--floor` the trivial-request rate measured first by the same client at the
/// same concurrency, so a flow's rate reads as a share of what its HTTP round trips allow.
struct RawPlan: Sendable {
    var flow: BenchFlow
    var concurrency: Int
    var stop: LoadRunner.Stop
    var floor: Bool
    var serverLabel: String
    /// Time between two flow starts of one client, or nil for back-to-back flows (see
    /// ``LoadRunner/run(_:until:pace:)``).
    var pace: Duration?
    /// Further instances of the same server (one database): client `i` talks to
    /// `[server] + otherServers` at `i` modulo their count, as a load balancer with kept-alive
    /// connections would spread them. Users are made through the first.
    var otherServers: [URL] = []
    /// Latency per window of this length as well (``BenchReport/windows``); nil for none.
    var window: Duration?
    /// A file of the clients' users and device keys: read when it exists (the same users as the
    /// run that wrote it, each with the history it left), written when it does not.
    var keptDevices: URL?

    func run(server: URL, adminKey: String) async throws -> BenchReport {
        var configuration = HTTPClient.Configuration()
        // One connection per simulated user, kept alive for the whole run.
        configuration.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let report = try await measure(http: http, server: server, adminKey: adminKey)
            try await http.shutdown()
            return report
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func measure(http: HTTPClient, server: URL, adminKey: String) async throws -> BenchReport {
        let bases = ([server] + otherServers).map { url in
            url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        }
        let base = bases[0]
        func baseOf(client index: Int) -> String { bases[index % bases.count] }
        var floorReport: BenchReport?
        if floor {
            let clients = try (0..<concurrency).map { try RawClient(flow: .health, http: http, base: baseOf(client: $0), device: nil) }
            floorReport = try await runClients(clients, flow: .health, pace: nil)
            if let floorReport {
                StandardError.note("floor: \(floorReport.flowsPerSecond) trivial requests/s, errors \(floorReport.errors)")
            }
        }
        guard flow != .health || floorReport == nil else { return floorReport! }
        let clients: [RawClient]
        if flow == .health {
            clients = try (0..<concurrency).map { try RawClient(flow: .health, http: http, base: baseOf(client: $0), device: nil) }
        } else {
            let admin = AdminAPI(server: server, adminKey: adminKey, session: URLSession(configuration: .ephemeral))
            let runID = Base64URL.encode((0..<6).map { _ in UInt8.random(in: .min ... .max) }).lowercased()
                .replacingOccurrences(of: "-", with: "x").replacingOccurrences(of: "_", with: "y")
            var devices = try keptDevices.flatMap(RawDevice.load(from:)) ?? []
            if devices.count < concurrency {
                // One at a time: when an admin call fails, a task group would cancel the other
                // tasks' URLSession calls, and that cancellation can hang FoundationNetworking on
                // Linux; a few calls in turn cost nothing next to the run.
                for index in devices.count..<concurrency {
                    devices.append(try await RawDevice.bind(http: http, base: base, admin: admin, email: "bench-\(runID)-r\(index)@example.com"))
                }
                if let keptDevices { try RawDevice.save(devices, to: keptDevices) }
            }
            clients = try devices.prefix(concurrency).enumerated().map { index, device in
                try RawClient(flow: flow, http: http, base: baseOf(client: index), device: device)
            }
            StandardError.note("set up \(concurrency) raw clients, each with its bound device; running \(flow.rawValue)")
        }
        var report = try await runClients(clients, flow: flow, pace: pace)
        if let floorReport {
            report.setFloor(requestsPerSecond: floorReport.flowsPerSecond, loadAverage: floorReport.loadAverage)
        }
        return report
    }

    private func runClients(_ clients: [RawClient], flow: BenchFlow, pace: Duration?) async throws -> BenchReport {
        let loadBefore = LoadAverage.read()
        let (tally, elapsed) = await LoadRunner.run(clients, until: stop, pace: pace, window: flow == .health ? nil : window)
        for sample in tally.errorSamples { StandardError.note("error: \(sample)") }
        var report = BenchReport(
            flow: flow, server: serverLabel, scrypt: nil, concurrency: concurrency, usersPerClient: nil, tally: tally,
            elapsed: elapsed)
        report.mode = "raw"
        report.requestsPerFlow = flow.requestsPerFlow
        report.loadAverage = "\(loadBefore) → \(LoadAverage.read())"
        report.offeredFlowsPerSecond = pace.map { Double(concurrency) / Self.seconds($0) }
        report.windows = tally.window.map { LatencyWindow.windows(of: tally.windowLatencies, lengthSeconds: Self.seconds($0)) }
        return report
    }
}

extension RawPlan {
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The 1-minute load average from `/proc/loadavg`, to say how busy the machine was.
enum LoadAverage {
    static func read() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return "?" }
        return String(first)
    }
}
