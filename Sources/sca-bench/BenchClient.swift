import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SCAClient

/// One simulated app: its own `SCAClient` over its own URL session, and either a pool of users
/// to log in by hand or one activated device. It runs one flow at a time, as a person would.
struct BenchClient: LoadClient {
    /// The benchmark's payment: 125.00 EUR to ACME SAS, below the high-value threshold, so two
    /// categories suffice.
    static let acme = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))

    let flow: BenchFlow
    let client: SCAClient
    private var pool: UserPool?

    /// How often a manual-login client waited for the next TOTP step.
    var poolWaits: Int { pool?.waits ?? 0 }

    /// A client logging in by hand with `users` in turn.
    static func manual(server: URL, users: [BenchUser]) -> BenchClient {
        BenchClient(flow: .manual, client: makeClient(server: server, keyStore: InMemoryDeviceKeyStore()), pool: UserPool(users: users))
    }

    /// A client whose device is activated for a fresh user, through the SDK as an app does it.
    static func device(flow: BenchFlow, server: URL, admin: AdminAPI, email: String) async throws -> BenchClient {
        let userID = try await admin.createUser(CreateUserRequest(email: email, emailCodes: false))
        let code = try await admin.issueActivationCode(userID: userID)
        let client = makeClient(server: server, keyStore: InMemoryDeviceKeyStore())
        _ = try await client.activateDevice(code: code, name: "sca-bench")
        return BenchClient(flow: flow, client: client, pool: nil)
    }

    /// Runs one flow to its token.
    /// - Parameter deadline: when the run stops starting flows (nil: no limit); only a wait for a
    ///   fresh TOTP step can reach it.
    /// - Returns: how long the flow took, from its first request to its token (a wait for a
    ///   fresh TOTP step comes before the clock starts); nil when no flow could start before
    ///   `deadline`.
    mutating func runFlow(before deadline: ContinuousClock.Instant?) async throws -> Duration? {
        let clock = ContinuousClock()
        switch flow {
        case .manual:
            guard var pool else { throw BenchError("a manual-login client has no users") }
            let taken = try await pool.take(before: deadline)
            self.pool = pool
            guard let (user, code) = taken else { return nil }
            let collector = ScriptedCollector(password: user.password, totpCode: code)
            let start = clock.now
            _ = try await client.logIn(email: user.email, using: collector)
            return clock.now - start
        case .coldStart:
            let start = clock.now
            _ = try await client.coldStart(using: ScriptedCollector())
            return clock.now - start
        case .payment:
            let start = clock.now
            _ = try await client.pay(Self.acme, using: ScriptedCollector())
            return clock.now - start
        case .challenge, .health:
            throw BenchError("\(flow.rawValue) runs in raw mode only")
        }
    }

    private static func makeClient(server: URL, keyStore: any DeviceKeyStore) -> SCAClient {
        // An ephemeral session per client: its own connections, nothing on disk, as separate
        // apps would have.
        SCAClient(server: server, keyStore: keyStore, session: URLSession(configuration: .ephemeral))
    }
}
