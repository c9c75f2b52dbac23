import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import Testing

/// The phone's side of decoupled operations as the tests play it: device-signed requests
/// (a fresh nonce each) and the two signatures over an operation's challenge payload.
struct OperationPhone: Sendable {
    let api: APIClient
    let device: TestDevice

    /// A nonce from `POST /v1/operations/nonce`.
    func nonce() async throws -> String {
        let response = try await api.send(.post, "/v1/operations/nonce")
        #expect(response.status == 200)
        return try response.decode(DeviceNonceResponse.self).nonce
    }

    /// The three headers of a device-signed request over `body`.
    func headers(_ method: HTTPRequest.Method, _ path: String, body: Data, nonce: String, key: P256.Signing.PrivateKey? = nil) throws -> HTTPFields {
        let payload = DeviceRequestSignature.payload(
            deviceID: device.deviceID, method: method.rawValue, path: path, nonce: nonce, body: Array(body))
        let signature = try (key ?? device.possessionKey).signature(for: payload).rawRepresentation
        return [
            .contentType: "application/json", HTTPField.Name("SCA-Device-Id")!: device.deviceID,
            HTTPField.Name("SCA-Device-Nonce")!: nonce, HTTPField.Name("SCA-Device-Signature")!: Base64URL.encode(signature),
        ]
    }

    /// Sends a signed request; `query` is not signed (the path is).
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ path: String, query: String = "", body: Data = Data(), nonce: String? = nil,
        key: P256.Signing.PrivateKey? = nil
    ) async throws -> APIResponse {
        var used = nonce ?? ""
        if nonce == nil { used = try await self.nonce() }
        let response = try await api.client.execute(
            uri: path + query, method: method, headers: try headers(method, path, body: body, nonce: used, key: key),
            body: body.isEmpty ? nil : ByteBuffer(bytes: body))
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    func pending(wait: Int? = nil) async throws -> [PendingOperation] {
        let response = try await send(.get, "/v1/operations/pending", query: wait.map { "?wait=\($0)" } ?? "")
        #expect(response.status == 200)
        return try response.decode(PendingOperationsResponse.self).operations
    }

    /// The approval body: device-key and biometric-key signatures over the operation's
    /// challenge payload; `digest` overrides the transaction digest signed.
    func approval(for operation: PendingOperation, digest: String?? = nil, wrongKey: Bool = false) throws -> ApproveOperationRequest {
        func sign(_ method: AuthenticationMethod, _ key: P256.Signing.PrivateKey) throws -> String {
            let payload = DeviceSignature.payload(
                method: method, challengeID: operation.challengeId, nonce: operation.nonce, operation: operation.operation,
                transactionDigest: digest ?? operation.transactionDigest)
            return Base64URL.encode(try key.signature(for: payload).rawRepresentation)
        }
        let stranger = P256.Signing.PrivateKey()
        return ApproveOperationRequest(
            deviceKeySignature: try sign(.deviceKey, wrongKey ? stranger : device.possessionKey),
            biometricKeySignature: try sign(.biometricKey, device.biometryKey))
    }

    func approve(_ operation: PendingOperation, _ body: ApproveOperationRequest? = nil) async throws -> APIResponse {
        try await send(
            .post, "/v1/operations/\(operation.operationId)/approve",
            body: try WireJSON.encoder().encode(try body ?? approval(for: operation)))
    }

    func reject(_ operationID: String, _ reason: OperationRejectReason) async throws -> APIResponse {
        try await send(.post, "/v1/operations/\(operationID)/reject", body: try WireJSON.encoder().encode(RejectOperationRequest(reason: reason)))
    }
}

extension APIClient {
    /// A user with an activated phone (device key and biometric key).
    func userWithPhone(_ email: String) async throws -> (userID: String, phone: OperationPhone) {
        let userID = try await createUser(email)
        var device = TestDevice()
        try await activate(&device, userID: userID)
        return (userID, OperationPhone(api: self, device: device))
    }

    /// `POST /v1/operations` with the admin key.
    func createOperation(_ request: CreateOperationRequest) async throws -> APIResponse {
        try await post("/v1/operations", request, admin: true)
    }

    func operation(_ id: String, method: HTTPRequest.Method = .get) async throws -> APIResponse {
        try await send(method, "/v1/operations/\(id)", admin: true)
    }
}
