import Crypto
import Foundation
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decoupled operations on two `sca-server` processes sharing one PostgreSQL schema:
/// created on one instance, approved on the other, read back on the first; a device nonce
/// serves one request whichever instance it reaches.
@Suite(
    "Decoupled operations across instances", .serialized,
    .enabled(if: ServerPair.databaseURL != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct MultiInstanceOperationTests {
    /// A device-signed request to `instance` with `nonce` (from any instance).
    static func signed(
        _ instance: ServerInstance, _ method: String, _ path: String, query: String = "", body: Data = Data(),
        device: TestDevice, nonce: String
    ) async throws -> HTTPResult {
        var request = URLRequest(url: try #require(URL(string: instance.origin + path + query)))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let payload = DeviceRequestSignature.payload(deviceID: device.deviceID, method: method, path: path, nonce: nonce, body: Array(body))
        request.setValue(device.deviceID, forHTTPHeaderField: "SCA-Device-Id")
        request.setValue(nonce, forHTTPHeaderField: "SCA-Device-Nonce")
        request.setValue(
            Base64URL.encode(try device.possessionKey.signature(for: payload).rawRepresentation), forHTTPHeaderField: "SCA-Device-Signature")
        if !body.isEmpty { request.httpBody = body }
        let (data, response) = try await instance.session.data(for: request)
        return HTTPResult(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    static func nonce(_ instance: ServerInstance) async throws -> String {
        try await instance.send("POST", "/v1/operations/nonce").decode(DeviceNonceResponse.self).nonce
    }

    @Test("created on A, listed and approved on B with A's nonces, read approved on A; the token is consumed once")
    func approveAcrossInstances() async throws {
        try await ServerPair.run { a, b in
            let userID = try await a.createUser("phone@example.com")
            var device = TestDevice()
            let code = try await a.send("POST", "/admin/v1/users/\(userID)/activations", admin: true)
                .decode(ActivationCodeResponse.self).activationCode
            let registered = try await b.post("/v1/devices", try device.registration(code: code))
            #expect(registered.status == 201)
            device.deviceID = try registered.decode(RegisteredDeviceResponse.self).deviceId

            // B holds a long poll open while A creates the operation.
            let transaction = Transaction(
                amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))
            let waitNonce = try await Self.nonce(a)
            let polled = Task { [device] in
                try await Self.signed(b, "GET", "/v1/operations/pending", query: "?wait=20", device: device, nonce: waitNonce)
            }
            let created = try await a.post(
                "/v1/operations",
                CreateOperationRequest(user: UserReference(userId: userID), operation: .payment, transaction: transaction),
                admin: true)
            #expect(created.status == 201)
            let operationID = try created.decode(OperationResponse.self).operationId
            let pending = try await polled.value.decode(PendingOperationsResponse.self).operations
            let operation = try #require(pending.first)
            #expect(operation.operationId == operationID)

            func sign(_ method: AuthenticationMethod, _ key: P256.Signing.PrivateKey) throws -> String {
                let payload = DeviceSignature.payload(
                    method: method, challengeID: operation.challengeId, nonce: operation.nonce, operation: .payment,
                    transactionDigest: operation.transactionDigest)
                return Base64URL.encode(try key.signature(for: payload).rawRepresentation)
            }
            let body = try WireJSON.encoder().encode(
                ApproveOperationRequest(
                    deviceKeySignature: try sign(.deviceKey, device.possessionKey),
                    biometricKeySignature: try sign(.biometricKey, device.biometryKey)))
            let nonce = try await Self.nonce(a)
            let approved = try await Self.signed(b, "POST", "/v1/operations/\(operationID)/approve", body: body, device: device, nonce: nonce)
            #expect(approved.status == 200)
            // The same signed request replayed on A: its nonce is spent on every instance.
            let replayed = try await Self.signed(a, "POST", "/v1/operations/\(operationID)/approve", body: body, device: device, nonce: nonce)
            #expect(replayed.status == 401)
            #expect(replayed.problem?.code == .deviceRequestInvalid)

            let read = try await a.send("GET", "/v1/operations/\(operationID)", admin: true).decode(OperationResponse.self)
            #expect(read.status == .approved)
            let token = try #require(read.accessToken)
            let consume = IntrospectRequest(token: token, transaction: transaction, operation: .payment, consume: true)
            #expect(try await b.post("/v1/tokens/introspect", consume).decode(IntrospectResponse.self).active)
            #expect(try await a.post("/v1/tokens/introspect", consume).decode(IntrospectResponse.self).active == false)
        }
    }
}
