import Foundation
import SCACore

// Decoupled operations: what a bank's backend asked this phone to approve.
extension SCAClient {
    /// The operations waiting for this device, oldest first, each with what it shows (amount,
    /// payee, IBAN, binding message) and what it signs.
    ///
    /// - Parameter wait: 0 to answer at once; up to 25 to have the server hold the request
    ///   until an operation appears or that many seconds pass (one open request, no polling).
    /// - Throws: ``SCAClientError/deviceNotActivated`` without a binding;
    ///   ``SCAClientError/deviceRefused(_:)`` for a blocked or removed device; `URLError`.
    public func pendingOperations(wait: Int = 0) async throws -> [PendingOperation] {
        let binding = try await currentBinding()
        let keyStore = self.keyStore
        let answer: PendingOperationsResponse = try await transport.sendDeviceSigned(
            .get, "v1/operations/pending", query: wait > 0 ? "wait=\(wait)" : nil, deviceID: binding.deviceId,
            timeout: TimeInterval(wait + 30)
        ) { payload in try await keyStore.sign(payload, with: .possession) }
        return answer.operations
    }

    /// Approves an operation: runs the collector's biometric gate, signs the operation's
    /// challenge payload with the device key and the biometric key (as a payment proof is
    /// signed), and submits both in one device-signed request.
    ///
    /// Show the operation plainly and ask the user first: this call approves.
    /// - Returns: the operation's final status (`approved`).
    /// - Throws: ``SCAClientError/cancelled`` when the gate fails or is declined (nothing is
    ///   sent); ``SCAClientError/server(_:)`` for the server's refusal (`sca.proof_rejected`,
    ///   `operation.closed`, …); ``SCAClientError/deviceNotActivated`` without a binding with a
    ///   biometric key.
    @discardableResult
    public func approve(_ operation: PendingOperation, using collector: any FactorCollector) async throws -> OperationDecisionResponse {
        let binding = try await currentBinding()
        guard binding.hasBiometryKey else { throw SCAClientError.deviceNotActivated }
        guard try await collector.passBiometricGate(reason: Self.reason(for: operation)) else { throw SCAClientError.cancelled }
        func signature(_ method: AuthenticationMethod, _ key: DeviceKeyKind) async throws -> String {
            let payload = DeviceSignature.payload(
                method: method, challengeID: operation.challengeId, nonce: operation.nonce, operation: operation.operation,
                transactionDigest: operation.transactionDigest)
            return Base64URL.encode(try await keyStore.sign(payload, with: key))
        }
        let body = ApproveOperationRequest(
            deviceKeySignature: try await signature(.deviceKey, .possession),
            biometricKeySignature: try await signature(.biometricKey, .biometry))
        return try await signedDecision("approve", of: operation.operationId, body: try WireJSON.encoder().encode(body), binding: binding)
    }

    /// Refuses an operation. `notMe` tells the bank someone else started it.
    /// - Returns: the operation's final status (`rejected`).
    @discardableResult
    public func reject(_ operation: PendingOperation, reason: OperationRejectReason) async throws -> OperationDecisionResponse {
        let binding = try await currentBinding()
        let body = try WireJSON.encoder().encode(RejectOperationRequest(reason: reason))
        return try await signedDecision("reject", of: operation.operationId, body: body, binding: binding)
    }

    private func signedDecision(_ action: String, of id: String, body: Data, binding: DeviceBinding) async throws -> OperationDecisionResponse {
        let keyStore = self.keyStore
        return try await transport.sendDeviceSigned(
            .post, "v1/operations/\(APITransport.escape(id))/\(action)", body: body, deviceID: binding.deviceId
        ) { payload in try await keyStore.sign(payload, with: .possession) }
    }

    /// One line for the biometric prompt: what the signature approves.
    static func reason(for operation: PendingOperation) -> String {
        if let transaction = operation.transaction {
            return "Approve paying \(transaction.amount) \(transaction.currency) to \(transaction.payee.name)"
        }
        switch operation.operation {
        case .login: return "Approve signing in"
        case .settingsChange: return "Approve the change of your settings"
        default: return "Approve the operation"
        }
    }
}
