import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SCAClient

/// What to run, decided from the command line: the flow, how many clients, for how long, and
/// how to set the clients up.
struct BenchPlan: Sendable {
    var flow: BenchFlow
    var concurrency: Int
    var stop: LoadRunner.Stop
    /// Manual logins: users per client, or nil to size the pools by time (see ``makeUsers``).
    var usersPerClient: Int?
    /// Seconds the run lasts, to size the user pools.
    var duration: Double
    /// `in-process` or the server URL, for the report.
    var serverLabel: String
    var scryptLabel: String?

    /// Sets the clients up against `server`, runs them, and reports.
    func run(server: URL, adminKey: String) async throws -> BenchReport {
        let admin = AdminAPI(server: server, adminKey: adminKey, session: URLSession(configuration: .ephemeral))
        // E-mail addresses must be new on a server that outlives this run.
        let runID = Base64URL.encode((0..<6).map { _ in UInt8.random(in: .min ... .max) }).lowercased()
            .replacingOccurrences(of: "-", with: "x").replacingOccurrences(of: "_", with: "y")
        let clock = ContinuousClock()
        let setupStart = clock.now
        let clients = try await makeClients(server: server, admin: admin, runID: runID)
        // The smallest pool is the one that may run dry first.
        let users = flow == .manual ? clients.map(\.poolSize).min() : nil
        StandardError.note("set up \(concurrency) clients in \((clock.now - setupStart).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))\(users.map { ", at least \($0) users each" } ?? ""); running \(flow.rawValue)")
        let (tally, elapsed) = await LoadRunner.run(clients.map(\.client), until: stop)
        for sample in tally.errorSamples { StandardError.note("error: \(sample)") }
        return BenchReport(
            flow: flow, server: serverLabel, scrypt: scryptLabel, concurrency: concurrency, usersPerClient: users,
            tally: tally, elapsed: elapsed)
    }

    /// One prepared client and the size of its user pool (0 for device flows).
    private struct Prepared: Sendable {
        var client: BenchClient
        var poolSize: Int
    }

    private func makeClients(server: URL, admin: AdminAPI, runID: String) async throws -> [Prepared] {
        try await withThrowingTaskGroup(of: (Int, Prepared).self) { group in
            let setupDeadline = ContinuousClock.now + .seconds(poolFillSeconds)
            for index in 0..<concurrency {
                group.addTask {
                    let prefix = "bench-\(runID)-c\(index)"
                    switch flow {
                    case .manual:
                        let users = try await makeUsers(admin: admin, prefix: prefix, runID: runID, until: setupDeadline)
                        return (index, Prepared(client: .manual(server: server, users: users), poolSize: users.count))
                    case .coldStart, .payment:
                        let client = try await BenchClient.device(flow: flow, server: server, admin: admin, email: "\(prefix)@example.com")
                        return (index, Prepared(client: client, poolSize: 0))
                    case .challenge, .health:
                        throw BenchError("\(flow.rawValue) runs in raw mode only (--mode raw)")
                    }
                }
            }
            var prepared: [(Int, Prepared)] = []
            for try await one in group { prepared.append(one) }
            return prepared.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Seconds spent filling user pools when their size is not given.
    ///
    /// A user can log in once per 30-second TOTP step, so a client needs as many users as it
    /// logs in within one step, or within the whole run when shorter. Creating a user costs the
    /// server one scrypt hash and a login one scrypt verify, the same work: clients that create
    /// users for as long as they will log in within one step end up with about as many users as
    /// they need. Half as long again is the margin for a creation's cheaper HTTP side and
    /// for luck: a client whose pool runs dry waits for the next step (reported as pool waits).
    private var poolFillSeconds: Double { 1.5 * min(duration, 30) }

    /// The users of one manual-login client: `usersPerClient` of them, or as many as it creates
    /// before `deadline`.
    private func makeUsers(admin: AdminAPI, prefix: String, runID: String, until deadline: ContinuousClock.Instant) async throws -> [BenchUser] {
        var users: [BenchUser] = []
        while true {
            if let usersPerClient {
                if users.count >= usersPerClient { break }
            } else if !users.isEmpty, ContinuousClock.now >= deadline {
                break
            }
            let email = "\(prefix)-u\(users.count)@example.com"
            let password = "bench password \(runID)"
            let userID = try await admin.createUser(CreateUserRequest(email: email, password: password, emailCodes: false))
            users.append(BenchUser(email: email, password: password, totp: try await admin.enrollTOTP(userID: userID)))
        }
        return users
    }
}
