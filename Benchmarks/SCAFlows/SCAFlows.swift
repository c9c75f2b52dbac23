import Benchmark
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAServer
import Synchronization

/// Full flows through the in-process router (HummingbirdTesting, no socket) on a real SQLite
/// file: a manual login (password + TOTP) with the default and the test scrypt parameters,
/// a cold-start login and a payment signed by the device's two keys, and the client's two
/// signatures alone (subtract them for the server's share of a signed flow).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(10), maxIterations: 200)

    for (name, parameters) in [("default scrypt (N=2^15,r=8,p=1)", PasswordHasher.Parameters.default),
                               ("test scrypt (N=2^4,r=1,p=1)", PasswordHasher.Parameters.insecureFastForTesting)] {
        Benchmark("login password+TOTP, \(name)") { benchmark in
            let flow = try await Flows.shared.login(parameters)
            let iterations = benchmark.scaledIterations.count
            benchmark.startMeasurement()
            try await flow.run(iterations: iterations)
            benchmark.stopMeasurement()
        }
    }

    Benchmark("cold start: device key + biometry key") { benchmark in
        let flow = try await Flows.shared.device()
        let iterations = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        try await flow.run(transaction: nil, iterations: iterations)
        benchmark.stopMeasurement()
    }

    Benchmark("payment 125.00 EUR: device key + biometry key") { benchmark in
        let flow = try await Flows.shared.device()
        let acme = Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))
        let iterations = benchmark.scaledIterations.count
        benchmark.startMeasurement()
        try await flow.run(transaction: acme, iterations: iterations)
        benchmark.stopMeasurement()
    }

    Benchmark("client side: two P-256 signatures") { benchmark in
        let key = P256.Signing.PrivateKey()
        let payload = Array(repeating: UInt8(ascii: "x"), count: 120)
        for _ in benchmark.scaledIterations {
            blackHole(try key.signature(for: payload))
            blackHole(try key.signature(for: payload))
        }
    }
}

/// A user with an activated device (possession and biometry keys), for signed flows.
struct DeviceFlow {
    let services: SCAServices
    let directory: URL
    let userID: String
    let deviceID: String
    let possession = P256.Signing.PrivateKey()
    let biometry = P256.Signing.PrivateKey()

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-bench-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        services = try await SCAServices.make(configuration: configuration)
        userID = try await services.users.create(CreateUserRequest(email: "device@example.com")).id
        let code = try await services.devices.issueActivationCode(for: userID).activationCode
        guard let activation = ActivationCode(code) else { throw CancellationError() }
        let proof = try possession.signature(for: DeviceSignature.activationPayload(for: activation)).rawRepresentation
        deviceID = try await services.devices.register(RegisterDeviceRequest(
            activationCode: code, name: "bench", platform: "linux",
            possessionKey: Base64URL.encode(possession.publicKey.x963Representation),
            biometryKey: Base64URL.encode(biometry.publicKey.x963Representation), proof: Base64URL.encode(proof))).deviceId
    }

    func run(transaction: Transaction?, iterations: Int) async throws {
        let app = Application(router: services.router())
        let request = CreateChallengeRequest(
            operation: transaction == nil ? .login : .payment, user: UserReference(userId: userID),
            device: DeviceReference(deviceId: deviceID), transaction: transaction)
        let body = try WireJSON.encoder().encode(request)
        let (possession, biometry, deviceID) = (self.possession, self.biometry, self.deviceID)
        try await app.test(.router) { client in
            for _ in 0..<iterations {
                let created = try await client.execute(
                    uri: "/v1/challenges", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body))
                let challenge = try WireJSON.decoder().decode(ChallengeResponse.self, from: Data(buffer: created.body))
                var result: ProofResponse?
                for (method, key) in [(AuthenticationMethod.deviceKey, possession), (.biometricKey, biometry)] {
                    let payload = DeviceSignature.payload(
                        method: method, challengeID: challenge.challengeId, nonce: challenge.nonce,
                        operation: challenge.operation, transactionDigest: challenge.transactionDigest)
                    let proof = ProofRequest(
                        method: method, deviceId: deviceID,
                        signature: Base64URL.encode(try key.signature(for: payload).rawRepresentation))
                    let response = try await client.execute(
                        uri: "/v1/challenges/\(challenge.challengeId)/proofs", method: .post,
                        headers: [.contentType: "application/json"], body: ByteBuffer(bytes: try WireJSON.encoder().encode(proof)))
                    result = try WireJSON.decoder().decode(ProofResponse.self, from: Data(buffer: response.body))
                }
                precondition(result?.status == .complete, "signed flow did not complete")
                blackHole(result)
            }
        }
    }
}

/// Servers are built once per process and reused by every measured run, so set-up (a SQLite
/// file, key generation, a default-cost decoy hash) stays out of the figures.
actor Flows {
    static let shared = Flows()
    private var logins: [Int: LoginFlow] = [:]
    private var signed: DeviceFlow?

    func login(_ parameters: PasswordHasher.Parameters) async throws -> LoginFlow {
        if let flow = logins[parameters.logN] { return flow }
        let flow = try await LoginFlow(parameters: parameters)
        logins[parameters.logN] = flow
        return flow
    }

    func device() async throws -> DeviceFlow {
        if let signed { return signed }
        let flow = try await DeviceFlow()
        signed = flow
        return flow
    }
}

/// A server on a fresh SQLite file and one enrolled user. Its clock moves 30 s per login, so
/// every login has a fresh TOTP step (a step is accepted once per user).
final class LoginFlow: Sendable {
    let services: SCAServices
    let clock = BenchClock()
    let directory: URL
    let totp: TOTP

    init(parameters: PasswordHasher.Parameters) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-bench-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = parameters
        // One client opens every challenge: the per-address budget would measure the limit.
        configuration.rateLimits.challengesPerClient = []
        let clock = self.clock
        services = try await SCAServices.make(configuration: configuration, runtime: ServerRuntime(now: { clock.now() }))
        let user = try await services.users.create(CreateUserRequest(email: "bench@example.com", password: "bench password 1"))
        let enrollment = try await services.users.enrollTOTP(userID: user.id)
        guard let totp = TOTP.parse(enrollment.otpauthUri) else { throw CancellationError() }
        self.totp = totp
    }

    func run(iterations: Int) async throws {
        let app = Application(router: services.router())
        try await app.test(.router) { client in
            for _ in 0..<iterations {
                let now = self.clock.advance(by: 30)
                let created = try await client.execute(
                    uri: "/v1/challenges", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"operation":"login","user":{"email":"bench@example.com"}}"#))
                let challenge = try WireJSON.decoder().decode(ChallengeResponse.self, from: Data(buffer: created.body))
                _ = try await client.execute(
                    uri: "/v1/challenges/\(challenge.challengeId)/proofs", method: .post,
                    headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"method":"password","credential":"bench password 1"}"#))
                let done = try await client.execute(
                    uri: "/v1/challenges/\(challenge.challengeId)/proofs", method: .post,
                    headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"method":"totp","credential":"\#(self.totp.code(at: now))"}"#))
                let result = try WireJSON.decoder().decode(ProofResponse.self, from: Data(buffer: done.body))
                precondition(result.status == .complete, "login did not complete")
                blackHole(result)
            }
        }
    }
}

/// The server's clock in a login benchmark, moved by hand.
final class BenchClock: Sendable {
    private let date = Mutex(Date())

    func now() -> Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) -> Date {
        date.withLock { date in
            date = date.addingTimeInterval(seconds)
            return date
        }
    }
}
