import Foundation
import Hummingbird
import HummingbirdTesting
import SCAClient
import SCAServer
import SCATestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import SCAEngine
#endif

/// The real server, built in-process over a fresh SQLite directory with an injected clock, served
/// on a loopback socket with an ephemeral port, for the SDK to talk to over real HTTP.
struct SDKTestServer {
    static let adminKey = "sdk-test-admin-key-0123456789"

    let services: SCAServices
    let clock: TestClock
    let directory: URL

    /// - Parameter customize: changes to the server's configuration (policies, lifetimes).
    init(_ customize: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-sdk-test-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.appendingPathComponent("server").path
        configuration.passwordHashing = .insecureFastForTesting
        configuration.adminKey = Self.adminKey
        customize(&configuration)
        let clock = TestClock()
        self.clock = clock
        services = try await SCAServices.make(configuration: configuration, runtime: ServerRuntime(now: { clock.now() }))
    }

    /// Serves on 127.0.0.1 while `body` runs, then removes every file the test made.
    func run(_ body: @escaping @Sendable (Harness) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = Application(router: services.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let services = services
        let clock = clock
        let directory = directory
        // Messages to users are delivered in the background, as by `serve`.
        try await services.withBackgroundServices(.messages) {
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
                try await body(Harness(url: url, services: services, clock: clock, directory: directory))
            }
        }
    }
}

/// What a test works with: the server's URL, its services (to set up users and devices
/// directly) and the shared clock.
struct Harness: Sendable {
    static let password = "correct horse battery"
    static let phone = "+33612345678"

    let url: URL
    let services: SCAServices
    let clock: TestClock
    let directory: URL

    /// A new SDK client with its own key directory, on an ephemeral URL session and the test clock.
    func client(
        keyStore: (any DeviceKeyStore)? = nil, tokenStore: any TokenStore = InMemoryTokenStore(),
        configuration: SCAClient.Configuration = SCAClient.Configuration()
    ) -> SCAClient {
        let clock = clock
        return SCAClient(
            server: url, keyStore: keyStore ?? FileDeviceKeyStore(directory: keyDirectory()), tokenStore: tokenStore,
            configuration: configuration, session: URLSession(configuration: .ephemeral), now: { clock.now() })
    }

    /// A fresh directory for a device's keys, removed with the test's files.
    func keyDirectory() -> URL {
        directory.appendingPathComponent("device-\(UUID().uuidString)")
    }

    /// Creates a user with a password (and a phone when asked); returns its id.
    func createUser(_ email: String, phone: String? = nil) async throws -> String {
        try await services.users.create(CreateUserRequest(email: email, password: Self.password, phone: phone)).id
    }

    /// Enrols TOTP for the user; returns the generator the user's authenticator app would hold.
    func enrollTOTP(_ userID: String) async throws -> TOTP {
        let enrollment = try await services.users.enrollTOTP(userID: userID)
        return try #require(TOTP.parse(enrollment.otpauthUri))
    }

    /// A fresh TOTP code: the clock moves to the next step first, since a step is accepted once.
    func nextCode(_ totp: TOTP) -> String {
        clock.advance(by: TimeInterval(totp.period))
        return totp.code(at: clock.now())
    }

    /// The newest SMS or e-mail code sent to `address`, from the development outbox.
    func lastCode(sentTo address: String) throws -> String {
        let outbox = try #require(services.outbox)
        let message = try #require(try outbox.messages().last { $0.to == address })
        return String(message.text.prefix(6))
    }

    /// Activates `client`'s device for the user with an activation code issued by the server.
    func activate(_ client: SCAClient, for userID: String, name: String = "Test phone") async throws -> DeviceBinding {
        let issued = try await services.devices.issueActivationCode(for: userID)
        return try await client.activateDevice(code: issued.activationCode, name: name)
    }

    /// The challenge's state as the server has it.
    func state(of challengeID: String) async throws -> ChallengeState {
        try await services.challenges.get(challengeID).state
    }
}
