import Hummingbird
import Testing
import Crypto
import Foundation
import SCACore

/// A phone as the tests play it: a possession key and a biometry-gated key, signing exactly
/// the payloads openapi.yaml names.
struct TestDevice: Sendable {
    let possessionKey = P256.Signing.PrivateKey()
    let biometryKey = P256.Signing.PrivateKey()
    var deviceID = ""

    func registration(code: String, name: String = "Test phone", withBiometry: Bool = true) throws -> RegisterDeviceRequest {
        let activation = try #require(ActivationCode(code))
        let proof = try possessionKey.signature(for: DeviceSignature.activationPayload(for: activation)).rawRepresentation
        return RegisterDeviceRequest(
            activationCode: code, name: name, platform: "test",
            possessionKey: Base64URL.encode(possessionKey.publicKey.x963Representation),
            biometryKey: withBiometry ? Base64URL.encode(biometryKey.publicKey.x963Representation) : nil,
            proof: Base64URL.encode(proof))
    }

    /// The proof for `method` on `challenge`; `digest` overrides the challenge's transaction
    /// digest (to play a client that signed something else).
    func proof(
        _ method: AuthenticationMethod, for challenge: ChallengeResponse, digest: String?? = nil,
        key: P256.Signing.PrivateKey? = nil
    ) throws -> ProofRequest {
        let payload = DeviceSignature.payload(
            method: method, challengeID: challenge.challengeId, nonce: challenge.nonce, operation: challenge.operation,
            transactionDigest: digest ?? challenge.transactionDigest)
        let signer = key ?? (method == .deviceKey ? possessionKey : biometryKey)
        let signature = try signer.signature(for: payload).rawRepresentation
        return ProofRequest(method: method, deviceId: deviceID, signature: Base64URL.encode(signature))
    }
}



extension APIClient {
    /// Issues an activation code through the admin API and registers `device` with it.
    func activate(_ device: inout TestDevice, userID: String, withBiometry: Bool = true) async throws {
        let issued = try await send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
        #expect(issued.status == 201)
        let code = try issued.decode(ActivationCodeResponse.self).activationCode
        let registered = try await post("/v1/devices", try device.registration(code: code, withBiometry: withBiometry))
        #expect(registered.status == 201)
        device.deviceID = try registered.decode(RegisteredDeviceResponse.self).deviceId
    }

    func startChallenge(
        _ operation: OperationKind, userID: String, device: TestDevice?, transaction: Transaction? = nil
    ) async throws -> APIResponse {
        try await post(
            "/v1/challenges",
            CreateChallengeRequest(
                operation: operation, user: UserReference(userId: userID),
                device: device.map { DeviceReference(deviceId: $0.deviceID) }, transaction: transaction))
    }

    @discardableResult
    func prove(_ challengeID: String, _ proof: ProofRequest) async throws -> APIResponse {
        try await post("/v1/challenges/\(challengeID)/proofs", proof)
    }

    func bearer(_ method: HTTPRequest.Method, _ path: String, token: String, body: Data? = nil) async throws -> APIResponse {
        let response = try await client.execute(
            uri: path, method: method, headers: [.contentType: "application/json", .authorization: "Bearer \(token)"],
            body: body.map { ByteBuffer(bytes: $0) })
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }
}
