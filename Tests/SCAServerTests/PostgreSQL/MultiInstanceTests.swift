import Foundation
import JWTKit
import PostgresNIO
import SCACore
import SCAStoragePostgres
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two real `sca-server serve` processes on one PostgreSQL schema, driven over HTTP: every
/// once-only check must hold whichever instance a request reaches. Each test starts its own
/// pair on a fresh schema (both migrate it at once) with one shared server key, and stops
/// both with SIGTERM afterwards.
@Suite(
    "Several sca-server instances on one PostgreSQL database", .serialized,
    .enabled(if: ServerPair.databaseURL != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct MultiInstanceTests {
    @Test("100 concurrent password proofs for one challenge, spread over both instances, complete it once")
    func concurrentProofsCompleteOnce() async throws {
        try await ServerPair.run { a, b in
            let totp = try await a.enrollTOTP(try await a.createUser("race@example.com"))
            let challenge = try await a.startChallenge(email: "race@example.com")
            let first = try await b.prove(challenge.challengeId, .totp, totp.code(at: Date()))
            #expect(try first.decode(ProofResponse.self).status == .partial)

            let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<100 {
                    let instance = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        let response = try await instance.prove(challenge.challengeId, .password, ServerPair.password)
                        let complete = response.status == 200 && (try? response.decode(ProofResponse.self))?.accessToken != nil
                        return (response.status, complete)
                    }
                }
                return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
            }
            #expect(results.filter(\.1).count == 1)
            // The others were refused as already completed, or while attempts were being checked.
            #expect(results.filter { !$0.1 }.allSatisfy { [409, 429].contains($0.0) })
        }
    }

    @Test("50 parallel wrong passwords over both instances: exactly 5 are evaluated (401), then 423")
    func parallelWrongPasswordsLockOnce() async throws {
        try await ServerPair.run { a, b in
            _ = try await a.createUser("burst@example.com")
            var challenges: [String] = []
            for index in 0..<5 {
                let instance = index.isMultiple(of: 2) ? a : b
                challenges.append(try await instance.startChallenge(email: "burst@example.com").challengeId)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 {
                    let instance = index.isMultiple(of: 2) ? a : b
                    let challengeID = challenges[index % challenges.count]
                    group.addTask { try await instance.prove(challengeID, .password, "guess number \(index)").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 5)
            // 409: sent while another proof for the same challenge was being checked (not counted).
            #expect(statuses.allSatisfy { [401, 409, 423, 429].contains($0) })
            #expect(try await a.prove(challenges[0], .password, ServerPair.password).status == 423)
            #expect(try await b.prove(challenges[1], .password, ServerPair.password).status == 423)
        }
    }

    @Test("a TOTP code accepted on one instance is refused on the other")
    func totpCodeBurnsOnBothInstances() async throws {
        try await ServerPair.run { a, b in
            let totp = try await a.enrollTOTP(try await a.createUser("otp@example.com"))
            let code = totp.code(at: Date())
            let onA = try await a.startChallenge(email: "otp@example.com")
            #expect(try await a.prove(onA.challengeId, .password, ServerPair.password).status == 200)
            let accepted = try await a.prove(onA.challengeId, .totp, code)
            #expect(try accepted.decode(ProofResponse.self).status == .complete)

            let onB = try await b.startChallenge(email: "otp@example.com")
            #expect(try await b.prove(onB.challengeId, .password, ServerPair.password).status == 200)
            let replay = try await b.prove(onB.challengeId, .totp, code)
            #expect(replay.status == 409)
            #expect(replay.problem?.code == .codeAlreadyUsed)
        }
    }

    @Test("a refresh token reused on the other instance revokes the whole family")
    func refreshReuseAcrossInstances() async throws {
        try await ServerPair.run { a, b in
            let totp = try await a.enrollTOTP(try await a.createUser("family@example.com"))
            let tokens = try await a.logIn("family@example.com", totp: totp)
            let original = try #require(tokens.refreshToken)
            let access = try #require(tokens.accessToken)

            let rotated = try await a.post("/v1/tokens/refresh", RefreshRequest(refreshToken: original))
            #expect(rotated.status == 200)
            let next = try #require(try rotated.decode(TokenResponse.self).refreshToken)

            let reuse = try await b.post("/v1/tokens/refresh", RefreshRequest(refreshToken: original))
            #expect(reuse.status == 401)
            #expect(reuse.problem?.code == .tokenReused)
            #expect(try await a.post("/v1/tokens/refresh", RefreshRequest(refreshToken: next)).status == 401)
            let introspected = try await b.post("/v1/tokens/introspect", IntrospectRequest(token: access))
            #expect(try introspected.decode(IntrospectResponse.self).active == false)
        }
    }

    @Test("a payment token consumed on one instance is inactive on the other")
    func paymentTokenConsumedOnce() async throws {
        try await ServerPair.run { a, b in
            let totp = try await a.enrollTOTP(try await a.createUser("payer@example.com"))
            let transaction = Transaction(
                amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))
            // The challenge itself travels: created on A, proved on B and A.
            let challenge = try await a.startChallenge(.payment, email: "payer@example.com", transaction: transaction)
            #expect(try await b.prove(challenge.challengeId, .password, ServerPair.password).status == 200)
            let complete = try await a.prove(challenge.challengeId, .totp, totp.code(at: Date())).decode(ProofResponse.self)
            let token = try #require(complete.accessToken)

            let consume = IntrospectRequest(token: token, transaction: transaction, operation: .payment, consume: true)
            let first = try await a.post("/v1/tokens/introspect", consume).decode(IntrospectResponse.self)
            #expect(first.active)
            let second = try await b.post("/v1/tokens/introspect", consume).decode(IntrospectResponse.self)
            #expect(second.active == false)
        }
    }

    @Test("a token from one instance verifies with the other's JWKS: one signing key, one kid")
    func tokensVerifyWithEitherJWKS() async throws {
        try await ServerPair.run { a, b in
            let userID = try await a.createUser("jwks@example.com")
            let tokens = try await a.logIn("jwks@example.com", totp: try await a.enrollTOTP(userID))
            let token = try #require(tokens.accessToken)

            let jwksA = try await a.send("GET", "/.well-known/jwks.json")
            let jwksB = try await b.send("GET", "/.well-known/jwks.json")
            let kids = { (response: HTTPResult) -> [String] in
                let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                let keys = object?["keys"] as? [[String: Any]] ?? []
                return keys.compactMap { $0["kid"] as? String }
            }
            #expect(try kids(jwksA).count == 1)
            #expect(try kids(jwksA) == kids(jwksB))

            let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: jwksB.body, as: UTF8.self))
            let claims = try await keys.verify(token, as: OutsideClaims.self)
            #expect(claims.sub.value == userID)
            #expect(claims.op == "login")
        }
    }
}

extension MultiInstanceTests {
    @Test("an instance with another server key refuses to start, naming the setting")
    func mismatchedServerKeyIsRefused() async throws {
        try await ServerPair.withSchema { databaseURL, directory in
            let first = try ServeProcess(
                directory: directory.appendingPathComponent("a"),
                environment: ServerPair.environment(databaseURL: databaseURL, serverKey: ServerPair.newServerKey()))
            do {
                _ = try await first.port()
                let second = try ServeProcess(
                    directory: directory.appendingPathComponent("b"),
                    environment: ServerPair.environment(databaseURL: databaseURL, serverKey: ServerPair.newServerKey()))
                let refusal = await #expect(throws: ServerPair.Failure.self) { _ = try await second.port() }
                #expect(refusal?.description.contains("must use the same serverKey (SCA_SERVER_KEY)") == true)
                await second.stop()
            } catch {
                await first.stop()
                throw error
            }
            await first.stop()
        }
    }
}

/// Two `sca-server serve` processes on one fresh PostgreSQL schema.
enum ServerPair {
    static let databaseURL: String? = {
        guard let url = ProcessInfo.processInfo.environment["SCA_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        return url
    }()

    static let adminKey = "multi-instance-admin-key-0123456789"
    static let password = "correct horse battery"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the pair, runs `body`, then stops both (SIGTERM) and drops the schema, also when
    /// `body` throws.
    /// - Parameter settings: more `SCA_*` variables, the same for both.
    static func run(
        settings: [String: String] = [:], _ body: (ServerInstance, ServerInstance) async throws -> Void
    ) async throws {
        try await withSchema { databaseURL, directory in
            let environment = environment(databaseURL: databaseURL, serverKey: newServerKey()).merging(settings) { $1 }
            var processes: [ServeProcess] = []
            do {
                // Started together: both migrate the empty schema at the same moment.
                for name in ["a", "b"] {
                    processes.append(
                        try ServeProcess(directory: directory.appendingPathComponent(name), environment: environment))
                }
                async let portA = processes[0].port()
                async let portB = processes[1].port()
                let ports = try await (portA, portB)
                try await body(ServerInstance(port: ports.0), ServerInstance(port: ports.1))
            } catch {
                for process in processes { await process.stop() }
                throw error
            }
            for process in processes { await process.stop() }
        }
    }

    /// Runs `body` with the URL of a fresh schema and a scratch directory; drops and removes
    /// both afterwards, also when `body` throws.
    static func withSchema(_ body: (_ databaseURL: String, _ directory: URL) async throws -> Void) async throws {
        guard let databaseURL else { throw Failure(description: "SCA_TEST_POSTGRES_URL is not set") }
        let schema = "sca_multi_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE SCHEMA \(schema)", url: databaseURL)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-multi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try await body(databaseURL + (databaseURL.contains("?") ? "&" : "?") + "search_path=\(schema)", directory)
        } catch {
            try? await execute("DROP SCHEMA \(schema) CASCADE", url: databaseURL)
            throw error
        }
        try await execute("DROP SCHEMA \(schema) CASCADE", url: databaseURL)
    }

    /// The environment of an instance: this process's, without its `SCA_*` variables, plus
    /// the database, the keys, cheap scrypt (the point is the store, not the hash) and an
    /// immediate verdict for logins.
    static func environment(databaseURL: String, serverKey: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }
        environment["SCA_DATABASE_URL"] = databaseURL
        environment["SCA_SERVER_KEY"] = serverKey
        environment["SCA_ADMIN_KEY"] = adminKey
        environment["SCA_SCRYPT_LOG_N"] = "4"
        environment["SCA_SCRYPT_R"] = "1"
        environment["SCA_VERDICT_LOGIN"] = "immediate"
        return environment
    }

    static func newServerKey() -> String {
        Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    /// The `sca-server` built with the tests: it sits next to the test bundle.
    static func serverBinary() throws -> URL {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        // Tests/SCAServerTests/PostgreSQL/<this file> → the package's .build/debug.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        directories.append(root.appendingPathComponent(".build/debug"))
        for directory in directories {
            let binary = directory.appendingPathComponent("sca-server")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw Failure(description: "no sca-server binary next to the tests (looked in \(directories.map(\.path)))")
    }

    /// Runs one statement on a connection of its own.
    static func execute(_ sql: String, url: String) async throws {
        var logger = Logger(label: "multi-instance-tests")
        logger.logLevel = .warning
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresDatabaseURL(url).connectionConfiguration(), id: 1, logger: logger)
        do {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// The status and body of an HTTP answer.
struct HTTPResult: Sendable {
    var status: Int
    var body: Data

    func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try WireJSON.decoder().decode(Value.self, from: body)
    }

    var problem: Problem? { try? decode(Problem.self) }
}

/// A client of one instance over loopback HTTP (URLSession), speaking the wire types.
struct ServerInstance: Sendable {
    let origin: String
    let session: URLSession

    init(port: Int) {
        origin = "http://127.0.0.1:\(port)"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    func send(_ method: String, _ path: String, body: Data? = nil, admin: Bool = false) async throws -> HTTPResult {
        var request = URLRequest(url: try #require(URL(string: origin + path)))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if admin { request.setValue("Bearer \(ServerPair.adminKey)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        return HTTPResult(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    func post(_ path: String, _ value: some Encodable, admin: Bool = false) async throws -> HTTPResult {
        try await send("POST", path, body: try WireJSON.encoder().encode(value), admin: admin)
    }

    func createUser(_ email: String) async throws -> String {
        let response = try await post(
            "/admin/v1/users", CreateUserRequest(email: email, password: ServerPair.password), admin: true)
        #expect(response.status == 201)
        return try response.decode(CreatedUserResponse.self).userId
    }

    func enrollTOTP(_ userID: String) async throws -> TOTP {
        let response = try await send("POST", "/admin/v1/users/\(userID)/totp", admin: true)
        #expect(response.status == 201)
        return try #require(TOTP.parse(try response.decode(TOTPEnrollmentResponse.self).otpauthUri))
    }

    func startChallenge(
        _ operation: OperationKind = .login, email: String, transaction: Transaction? = nil
    ) async throws -> ChallengeResponse {
        let response = try await post(
            "/v1/challenges",
            CreateChallengeRequest(operation: operation, user: UserReference(email: email), transaction: transaction))
        #expect(response.status == 201)
        return try response.decode(ChallengeResponse.self)
    }

    func prove(_ challengeID: String, _ method: AuthenticationMethod, _ credential: String) async throws -> HTTPResult {
        try await post("/v1/challenges/\(challengeID)/proofs", ProofRequest(method: method, credential: credential))
    }

    /// Password then TOTP on a new login challenge; returns the completing answer.
    func logIn(_ email: String, totp: TOTP) async throws -> ProofResponse {
        let challenge = try await startChallenge(email: email)
        #expect(try await prove(challenge.challengeId, .password, ServerPair.password).status == 200)
        let complete = try await prove(challenge.challengeId, .totp, totp.code(at: Date()))
        #expect(complete.status == 200)
        return try complete.decode(ProofResponse.self)
    }
}
