import ArgumentParser
import Foundation

/// `sca-bench`: N concurrent SDK clients driving full SCA flows over real HTTP, against a server
/// started in this process or a running one.
@main
struct SCABench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca-bench",
        abstract: "Drive concurrent SCAClient clients through full flows and report flows/s and latency.",
        discussion: """
            Without --server, starts sca-server in this process (SQLite in a temporary directory, \
            127.0.0.1 on a free port). With --server, creates its users and activation codes through \
            the admin API of that server (--admin-key or SCA_ADMIN_KEY).
            """)

    @Option(help: "Flow each client repeats: manual (password + TOTP), cold-start (device + biometry keys), payment (125.00 EUR, device + biometry keys).")
    var flow: BenchFlow = .manual

    @Option(help: "Seconds to start flows for.")
    var duration: Double = 10

    @Option(help: "Concurrent clients, each with its own users or device.")
    var concurrency: Int = 4

    @Option(help: "A running server's base URL; without it a server is started in this process. Raw mode: repeat it for several instances on one database, clients spread over them.")
    var server: [String] = []

    @Option(help: "Raw mode: offer this many flows per second in all (paced, each client at rate ÷ concurrency) instead of back-to-back flows; latency counts from when each flow was due.")
    var rate: Double?

    @Option(help: "Raw mode: also report p50, p99 and max latency for each window of this many seconds (where in a long run the tail happened).")
    var window: Double?

    @Option(help: "Raw mode: a file of the clients' users and device keys, written on the first run and read on later ones, so that later runs pay as the same users with the history the earlier ones left.")
    var devices: String?

    @Option(help: "Admin API key of --server (also SCA_ADMIN_KEY).")
    var adminKey: String?

    @Option(help: "scrypt parameters of the in-process server: default (N=2^15,r=8,p=1) or test (N=2^4,r=1,p=1).")
    var scrypt: ScryptChoice = .default

    @Option(help: "Manual logins: users per client (one login per user per 30 s TOTP step). Default: sized by time.")
    var usersPerClient: Int?

    @Option(help: "sdk: each client is the real SCAClient (what an app pays). raw: plain keep-alive HTTP, device keys made once per user (what the server costs).")
    var mode: BenchMode = .sdk

    @Flag(help: "Raw mode: first run GET /health/live with the same client and concurrency for as long, then report flows/s ÷ (trivial/s ÷ requests per flow).")
    var floor = false

    @Flag(help: "Print the report as one JSON object on the last line.")
    var json = false

    @Flag(help: "Run \(Self.smokeFlowsPerClient) flows per client whatever --duration says (for tests).")
    var smoke = false

    @Option(help: "Exactly this many flows per client, whatever --duration says: a fixed amount of work, e.g. for instruction counts under callgrind.")
    var flows: Int?

    @Flag(help: "Measure instead the scrypt bound: verifications per second with every core verifying (--scrypt parameters, --duration seconds), the ceiling of manual logins.")
    var scryptBound = false

    static let smokeFlowsPerClient = 3

    func validate() throws {
        guard (1...1024).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 1024") }
        guard duration > 0, duration <= 86_400 else { throw ValidationError("--duration must be positive seconds") }
        if let usersPerClient, usersPerClient < 1 { throw ValidationError("--users-per-client must be at least 1") }
        if let flows, flows < 1 { throw ValidationError("--flows must be at least 1") }
        if mode == .sdk, !flow.runsInSDKMode { throw ValidationError("--flow \(flow.rawValue) needs --mode raw") }
        if mode == .raw, flow == .manual { throw ValidationError("--mode raw runs cold-start, payment, challenge and health; manual logins run in SDK mode") }
        if floor, mode != .raw { throw ValidationError("--floor needs --mode raw (the floor is measured by the raw client)") }
        if devices != nil, mode != .raw { throw ValidationError("--devices needs --mode raw (the SDK clients bind their devices through the SDK)") }
        for server in server where URL(string: server)?.host == nil {
            throw ValidationError("--server must be a URL such as http://127.0.0.1:8080")
        }
        if server.count > 1, mode != .raw { throw ValidationError("several --server instances need --mode raw") }
        if let window {
            guard mode == .raw else { throw ValidationError("--window needs --mode raw") }
            guard window >= 0.1, window <= 86_400 else { throw ValidationError("--window must be between 0.1 and 86400 seconds") }
        }
        if let rate {
            guard mode == .raw else { throw ValidationError("--rate needs --mode raw") }
            guard rate > 0, rate <= 1_000_000 else { throw ValidationError("--rate must be positive flows per second") }
        }
    }

    func run() async throws {
        if scryptBound {
            let report = try ScryptBound(choice: scrypt, duration: .milliseconds(Int64(duration * 1000))).measure()
            if json {
                print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
            } else {
                print("scrypt \(report.scrypt): \(report.verifications) verifications on \(report.threads) threads in "
                    + String(format: "%.2f s: %.2f per second", report.seconds, report.verificationsPerSecond))
            }
            return
        }
        let plan = BenchPlan(
            flow: flow, concurrency: concurrency,
            stop: flows.map { .flowsPerClient($0) }
                ?? (smoke ? .flowsPerClient(Self.smokeFlowsPerClient) : .after(.milliseconds(Int64(duration * 1000)))),
            usersPerClient: usersPerClient ?? (smoke ? Self.smokeFlowsPerClient : nil),
            duration: duration,
            serverLabel: server.isEmpty ? "in-process" : server.joined(separator: " "), scryptLabel: server.isEmpty ? scrypt.summary : nil)
        let raw = RawPlan(
            flow: flow, concurrency: concurrency, stop: plan.stop, floor: floor, serverLabel: plan.serverLabel,
            pace: rate.map { .seconds(Double(concurrency) / $0) }, otherServers: server.dropFirst().compactMap { URL(string: $0) },
            window: window.map { .milliseconds(Int64($0 * 1000)) }, keptDevices: devices.map { URL(fileURLWithPath: $0) })
        let mode = mode
        let report: BenchReport
        if let server = server.first, let url = URL(string: server) {
            let key = adminKey ?? ProcessInfo.processInfo.environment["SCA_ADMIN_KEY"] ?? ""
            // The trivial request needs no user, so no admin key either.
            guard !key.isEmpty || (mode == .raw && flow == .health) else {
                throw ValidationError("--server needs the admin API key (--admin-key or SCA_ADMIN_KEY) to create its users")
            }
            report = try await mode == .raw ? raw.run(server: url, adminKey: key) : plan.run(server: url, adminKey: key)
        } else {
            StandardError.note("starting an in-process server, scrypt \(scrypt.summary)")
            report = try await InProcessServer.run(scrypt: scrypt) { url, key in
                try await mode == .raw ? raw.run(server: url, adminKey: key) : plan.run(server: url, adminKey: key)
            }
        }
        print(json ? try report.jsonLine() : report.text(flowSummary: flow.summary))
    }
}
