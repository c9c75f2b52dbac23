import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import SCATestSupport
import Testing

/// A real server over a real SQLite file in a fresh directory, driven through its router
/// (HummingbirdTesting, no socket). Cheap scrypt parameters keep the suite fast.
struct TestServer {
    static let adminKey = "test-admin-key-0123456789"

    let services: SCAServices
    let clock: TestClock
    let directory: URL

    /// - Parameters:
    ///   - store: an open store (PostgreSQL, its pool running); SQLite in the directory otherwise.
    ///   - logger: the services' logger (LoggingTests captures it); the server's default otherwise.
    ///   - clock: the server's clock; a new one otherwise. Two servers on one database share one.
    ///   - tracing: where the server's spans go (TracingTests); none otherwise.
    init(
        store: (any SCAStore)? = nil,
        logger: Logger = Logger(label: "sca-server", metadataProvider: .requestInfo),
        clock: TestClock = TestClock(),
        tracing: TraceRecorder = .off,
        _ customize: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-test-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = .insecureFastForTesting
        configuration.adminKey = Self.adminKey
        customize(&configuration)
        self.clock = clock
        services = try await SCAServices.make(
            configuration: configuration, store: store, runtime: ServerRuntime(now: { clock.now() }, tracing: tracing), logger: logger)
    }

    /// As ``run(_:)``, with the server also listening on 127.0.0.1:`port` (its `publicBaseURL`
    /// `base`), for what a browser or a child process reaches over a socket.
    /// The body starts once the server says it listens (no polling deadline, which a loaded
    /// machine can miss); a server that fails to start ends the wait with its error.
    func runListening(port: Int, base: String, _ body: @escaping @Sendable (APIClient) async throws -> Void) async throws {
        let (listening, signal) = AsyncStream.makeStream(of: Void.self)
        let app = Application(
            router: services.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in signal.yield() })
        try await run { api in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do { try await app.runService() } catch {
                        signal.finish()
                        throw error
                    }
                }
                do {
                    var started = listening.makeAsyncIterator()
                    guard await started.next() != nil else { throw WebDriverError(message: "the server did not start on \(base)") }
                    try await body(api)
                } catch {
                    group.cancelAll()
                    throw error
                }
                group.cancelAll()
            }
        }
    }

    /// Runs `body` against the router, then removes the data directory.
    func run(_ body: @escaping @Sendable (APIClient) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = Application(router: services.router())
        // Messages to users are delivered in the background, as by `serve`.
        try await services.withBackgroundServices(.messages) {
            try await app.test(.router) { client in
                try await body(APIClient(client: client, clock: clock, services: services))
            }
        }
    }
}

/// What a response said: status, headers and the raw body.
struct APIResponse: Sendable {
    var status: Int
    var headers: HTTPFields
    var body: Data

    func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try WireJSON.decoder().decode(Value.self, from: body)
    }

    var problem: Problem? { try? decode(Problem.self) }

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
    }
}

/// Thin helpers over the test client, speaking the wire types.
struct APIClient: Sendable {
    let client: any TestClientProtocol
    let clock: TestClock
    let services: SCAServices

    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, body: Data? = nil, admin: Bool = false) async throws -> APIResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if admin { headers[.authorization] = "Bearer \(TestServer.adminKey)" }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    @discardableResult
    func post(_ path: String, _ value: some Encodable, admin: Bool = false) async throws -> APIResponse {
        try await send(.post, path, body: try WireJSON.encoder().encode(value), admin: admin)
    }

    @discardableResult
    func post(_ path: String, raw: String) async throws -> APIResponse {
        try await send(.post, path, body: Data(raw.utf8))
    }

    // MARK: Domain steps

    /// Creates a user through the admin API; returns its id.
    func createUser(
        _ email: String, password: String? = "correct horse battery", pin: String? = nil, phone: String? = nil,
        emailCodes: Bool? = nil
    ) async throws -> String {
        let response = try await post(
            "/admin/v1/users",
            CreateUserRequest(email: email, password: password, pin: pin, phone: phone, emailCodes: emailCodes), admin: true)
        #expect(response.status == 201)
        return try response.decode(CreatedUserResponse.self).userId
    }

    /// Enrols TOTP through the admin API; returns the generator.
    func enrollTOTP(_ userID: String) async throws -> TOTP {
        let response = try await send(.post, "/admin/v1/users/\(userID)/totp", admin: true)
        #expect(response.status == 201)
        let enrollment = try response.decode(TOTPEnrollmentResponse.self)
        return try #require(TOTP.parse(enrollment.otpauthUri))
    }

    func startChallenge(
        _ operation: OperationKind = .login, email: String, transaction: Transaction? = nil
    ) async throws -> ChallengeResponse {
        let response = try await post(
            "/v1/challenges", CreateChallengeRequest(operation: operation, user: UserReference(email: email), transaction: transaction))
        #expect(response.status == 201)
        return try response.decode(ChallengeResponse.self)
    }

    @discardableResult
    func prove(_ challengeID: String, _ method: AuthenticationMethod, _ credential: String) async throws -> APIResponse {
        try await post("/v1/challenges/\(challengeID)/proofs", ProofRequest(method: method, credential: credential))
    }

    func sendCode(_ challengeID: String, _ method: AuthenticationMethod) async throws -> APIResponse {
        try await post("/v1/challenges/\(challengeID)/otp", SendCodeRequest(method: method))
    }

    /// The newest code sent to `address`, read from the development outbox.
    func lastCode(sentTo address: String) throws -> String {
        let outbox = try #require(services.outbox)
        let message = try #require(try outbox.messages().last { $0.to == address })
        return String(message.text.prefix(6))
    }

    func introspect(_ token: String, operation: OperationKind? = nil, transaction: Transaction? = nil, consume: Bool? = nil) async throws -> IntrospectResponse {
        let response = try await post(
            "/v1/tokens/introspect",
            IntrospectRequest(token: token, transaction: transaction, operation: operation, consume: consume))
        #expect(response.status == 200)
        return try response.decode(IntrospectResponse.self)
    }

    /// Password then TOTP on a new login challenge; returns the completing response.
    func logIn(_ email: String, password: String = "correct horse battery", totp: TOTP) async throws -> ProofResponse {
        let challenge = try await startChallenge(email: email)
        let first = try await prove(challenge.challengeId, .password, password)
        #expect(first.status == 200)
        let second = try await prove(challenge.challengeId, .totp, totp.code(at: clock.now()))
        #expect(second.status == 200)
        return try second.decode(ProofResponse.self)
    }
}
