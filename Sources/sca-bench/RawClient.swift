import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import SCACore

/// One simulated user of the raw mode: plain HTTP requests over a shared keep-alive client, the
/// user's device keys made once at setup, and per request only what the protocol asks for (a
/// signature over the challenge's nonce, its JSON). What it costs is small against the server's
/// share, so the run measures the server rather than the client.
struct RawClient: LoadClient {
    let flow: BenchFlow
    let http: HTTPClient
    /// The server's base URL without its trailing slash.
    let base: String
    /// The device's ids and keys; nil for the trivial request, which needs no user.
    let device: RawDevice?
    /// `POST /v1/challenges` body, the same for every flow of this user: encoded once.
    private let challengeBody: ByteBuffer?
    private let encoder = WireJSON.encoder()
    private let decoder = WireJSON.decoder()

    var poolWaits: Int { 0 }

    /// The largest answer a flow reads; a token response is a few kilobytes.
    static let maxAnswerBytes = 1 << 20
    static let timeout: TimeAmount = .seconds(30)

    init(flow: BenchFlow, http: HTTPClient, base: String, device: RawDevice?) throws {
        self.flow = flow
        self.http = http
        self.base = base
        self.device = device
        if let device, flow != .health {
            let request = CreateChallengeRequest(
                operation: flow == .payment ? .payment : .login, user: UserReference(userId: device.userID),
                device: DeviceReference(deviceId: device.deviceID), transaction: flow == .payment ? BenchClient.acme : nil)
            challengeBody = ByteBuffer(bytes: try WireJSON.encoder().encode(request))
        } else {
            challengeBody = nil
        }
    }

    mutating func runFlow(before deadline: ContinuousClock.Instant?) async throws -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        switch flow {
        case .health:
            _ = try await send(.GET, "/health/live", body: nil)
        case .challenge:
            // The answer's status is checked (a 2xx); its body is not needed by anything after.
            _ = try await send(.POST, "/v1/challenges", body: try requireChallengeBody())
        case .coldStart, .payment:
            let challenge = try await createChallenge()
            guard let device else { throw BenchError("a device flow has no device") }
            let first = try await prove(.deviceKey, key: device.possession, challenge: challenge, device: device)
            guard first.status == .partial else { throw BenchError("the device key alone completed the challenge") }
            let second = try await prove(.biometricKey, key: device.biometry, challenge: challenge, device: device)
            guard second.status == .complete, second.accessToken != nil else {
                throw BenchError("two device keys did not complete the challenge (\(second.status.rawValue))")
            }
        case .manual:
            throw BenchError("manual logins run in SDK mode only")
        }
        return clock.now - start
    }

    private func requireChallengeBody() throws -> ByteBuffer {
        guard let challengeBody else { throw BenchError("no challenge body: the client has no device") }
        return challengeBody
    }

    private func createChallenge() async throws -> SignedFields {
        let answer = try await send(.POST, "/v1/challenges", body: try requireChallengeBody())
        return try decoder.decode(SignedFields.self, from: Data(answer.readableBytesView))
    }

    private func prove(
        _ method: AuthenticationMethod, key: P256.Signing.PrivateKey, challenge: SignedFields, device: RawDevice
    ) async throws -> ProofOutcome {
        let payload = DeviceSignature.payload(
            method: method, challengeID: challenge.challengeId, nonce: challenge.nonce, operation: challenge.operation,
            transactionDigest: challenge.transactionDigest)
        let signature = Array(try key.signature(for: payload).rawRepresentation)
        let proof = ProofRequest(method: method, deviceId: device.deviceID, signature: Base64URL.encode(signature))
        let answer = try await send(
            .POST, "/v1/challenges/\(challenge.challengeId)/proofs", body: ByteBuffer(bytes: try encoder.encode(proof)))
        return try decoder.decode(ProofOutcome.self, from: Data(answer.readableBytesView))
    }

    /// The fields of a challenge answer that the device signs: all a flow reads of it, so the
    /// client decodes no more than an app must (the full `ChallengeResponse`, with its offered
    /// methods, cost the client more than the request itself).
    private struct SignedFields: Decodable {
        let challengeId: String
        let nonce: String
        let operation: OperationKind
        let transactionDigest: String?
    }

    /// What a flow checks of a proof's answer.
    private struct ProofOutcome: Decodable {
        let status: ProofStatus
        let accessToken: String?
    }

    /// One request; a status other than 2xx is an error naming the problem code.
    private func send(_ method: HTTPMethod, _ path: String, body: ByteBuffer?) async throws -> ByteBuffer {
        try await Self.send(http: http, method, base + path, body: body)
    }

    static func send(
        http: HTTPClient, _ method: HTTPMethod, _ url: String, body: ByteBuffer?, headers: [(String, String)] = []
    ) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await http.execute(request, timeout: timeout)
        let answer = try await response.body.collect(upTo: maxAnswerBytes)
        guard (200..<300).contains(response.status.code) else {
            let problem = try? WireJSON.decoder().decode(Problem.self, from: Data(answer.readableBytesView))
            throw BenchError("\(method.rawValue) \(url) answered \(response.status.code)\(problem.map { " \($0.code.rawValue)" } ?? "")")
        }
        return answer
    }
}

/// A device bound for one raw-mode user: its ids and its two P-256 keys, made once.
struct RawDevice: Sendable {
    let userID: String
    let deviceID: String
    let possession: P256.Signing.PrivateKey
    let biometry: P256.Signing.PrivateKey

    /// Creates a user and an activation code through the admin API, then binds fresh keys with
    /// `POST /v1/devices` as an app does.
    static func bind(http: HTTPClient, base: String, admin: AdminAPI, email: String) async throws -> RawDevice {
        let userID = try await admin.createUser(CreateUserRequest(email: email, emailCodes: false))
        let code = try await admin.issueActivationCode(userID: userID)
        guard let activation = ActivationCode(code) else { throw BenchError("the server's activation code does not parse: \(code)") }
        let possession = P256.Signing.PrivateKey()
        let biometry = P256.Signing.PrivateKey()
        let proof = try possession.signature(for: DeviceSignature.activationPayload(for: activation)).rawRepresentation
        let request = RegisterDeviceRequest(
            activationCode: activation.description, name: "sca-bench raw", platform: "sca-bench",
            possessionKey: Base64URL.encode(Array(possession.publicKey.x963Representation)),
            biometryKey: Base64URL.encode(Array(biometry.publicKey.x963Representation)), proof: Base64URL.encode(Array(proof)))
        let answer = try await RawClient.send(
            http: http, .POST, base + "/v1/devices", body: ByteBuffer(bytes: try WireJSON.encoder().encode(request)))
        let registered = try WireJSON.decoder().decode(RegisteredDeviceResponse.self, from: Data(answer.readableBytesView))
        return RawDevice(userID: userID, deviceID: registered.deviceId, possession: possession, biometry: biometry)
    }

    /// The devices of an earlier run (``save(_:to:)``), so that a run pays as the same users
    /// again and their history grows from run to run; nil when `file` does not exist yet.
    static func load(from file: URL) throws -> [RawDevice]? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try JSONDecoder().decode([Saved].self, from: Data(contentsOf: file)).map { saved in
            guard let possession = Base64URL.decode(saved.possession), let biometry = Base64URL.decode(saved.biometry) else {
                throw BenchError("\(file.path) holds a key that is not base64url")
            }
            return RawDevice(
                userID: saved.userID, deviceID: saved.deviceID,
                possession: try P256.Signing.PrivateKey(rawRepresentation: possession),
                biometry: try P256.Signing.PrivateKey(rawRepresentation: biometry))
        }
    }

    static func save(_ devices: [RawDevice], to file: URL) throws {
        let saved = devices.map { device in
            Saved(
                userID: device.userID, deviceID: device.deviceID,
                possession: Base64URL.encode(Array(device.possession.rawRepresentation)),
                biometry: Base64URL.encode(Array(device.biometry.rawRepresentation)))
        }
        try JSONEncoder().encode(saved).write(to: file)
    }

    /// A device as the file keeps it: the private keys too, as they are a benchmark's throwaways.
    private struct Saved: Codable {
        var userID: String
        var deviceID: String
        var possession: String
        var biometry: String
    }
}
