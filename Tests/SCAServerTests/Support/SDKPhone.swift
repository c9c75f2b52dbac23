import Foundation
import Hummingbird
import HummingbirdTesting
import SCAClient
import SCACore
import SCAServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The user's phone as the real SDK is: an `SCAClient` with its own key directory, activated
/// for a user with an activation code the server issued, talking to a server on a socket.
struct SDKPhone: Sendable {
    let client: SCAClient
    let deviceID: String

    /// Activates a new device named `name` for `userID` on the server at `url`.
    static func activate(_ api: APIClient, url: URL, userID: String, directory: URL, name: String = "Pixel of Alice") async throws -> SDKPhone {
        let clock = api.clock
        let client = SCAClient(
            server: url, keyStore: FileDeviceKeyStore(directory: directory.appendingPathComponent("device-\(UUID().uuidString)")),
            tokenStore: InMemoryTokenStore(), session: URLSession(configuration: .ephemeral), now: { clock.now() })
        let issued = try await api.services.devices.issueActivationCode(for: userID)
        let binding = try await client.activateDevice(code: issued.activationCode, name: name)
        return SDKPhone(client: client, deviceID: binding.deviceId)
    }

    /// The one operation waiting for this phone.
    func pending() async throws -> PendingOperation {
        let pending = try await client.pendingOperations()
        #expect(pending.count == 1, "\(pending.map(\.operationId))")
        return try #require(pending.first)
    }
}

/// A collector that only passes the biometric gate, as a user who taps "Approve" and touches
/// the fingerprint sensor; it records the prompts it saw.
final class ApprovingCollector: FactorCollector, @unchecked Sendable {
    private let lock = NSLock()
    private var prompts: [String] = []

    var reasons: [String] { lock.withLock { prompts } }

    func passBiometricGate(reason: String) async throws -> Bool {
        lock.withLock { prompts.append(reason) }
        return true
    }

    func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
        throw SCAClientError.cancelled
    }

    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String { throw SCAClientError.cancelled }

    func code(
        for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
        resend: @escaping @Sendable () async throws -> CodeSentResponse
    ) async throws -> String { throw SCAClientError.cancelled }

    func confirm(_ display: TransactionDisplay) async throws -> Bool { true }
}

extension TestServer {
    /// Like ``run(_:)``, but served on a loopback socket (ephemeral port) so the SDK can reach
    /// it over real HTTP; the test client and the SDK share the injected clock.
    func runLive(_ body: @escaping @Sendable (APIClient, URL) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = Application(router: services.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            try await body(APIClient(client: client, clock: clock, services: services), url)
        }
    }
}
