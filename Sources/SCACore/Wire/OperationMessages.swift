import Foundation

// Decoupled operations: a backend asks, the bound phone answers.

/// `POST /v1/operations`: an operation for the user to approve on their phone.
package struct CreateOperationRequest: Codable, Sendable, Equatable {
    package var user: UserReference
    /// `login`, `payment` (with `transaction`) or `settings_change`.
    package var operation: OperationKind
    package var transaction: Transaction?
    /// Shown on the phone as it is: at most 64 characters, no control or invisible characters.
    package var bindingMessage: String?
    /// Seconds until it expires: 1 to 900, default 300.
    package var expiresIn: Int?

    package init(
        user: UserReference, operation: OperationKind, transaction: Transaction? = nil, bindingMessage: String? = nil,
        expiresIn: Int? = nil
    ) {
        self.user = user
        self.operation = operation
        self.transaction = transaction
        self.bindingMessage = bindingMessage
        self.expiresIn = expiresIn
    }
}

/// An operation as its creator sees it (`201`, `GET`, `DELETE`).
package struct OperationResponse: Codable, Sendable, Equatable {
    package var operationId: String
    package var status: OperationStatus
    package var operation: OperationKind
    package var expiresAt: Date
    package var bindingMessage: String?
    /// For `rejected`: what the user said.
    package var rejectReason: OperationRejectReason?
    /// For `approved`: the operation-scoped access token (a payment's carries `txn`).
    package var accessToken: String?

    package init(
        operationId: String, status: OperationStatus, operation: OperationKind, expiresAt: Date,
        bindingMessage: String? = nil, rejectReason: OperationRejectReason? = nil, accessToken: String? = nil
    ) {
        self.operationId = operationId
        self.status = status
        self.operation = operation
        self.expiresAt = expiresAt
        self.bindingMessage = bindingMessage
        self.rejectReason = rejectReason
        self.accessToken = accessToken
    }
}

/// One operation waiting on the phone, with everything it shows and signs.
public struct PendingOperation: Codable, Sendable, Equatable {
    public var operationId: String
    public var operation: OperationKind
    /// The payment in full (the IBAN unmasked: the user checks it against their own record).
    public var transaction: Transaction?
    public var bindingMessage: String?
    public var expiresAt: Date
    /// What the device key and the biometric key sign (``DeviceSignature/payload``): this
    /// challenge, its nonce, the operation and the transaction digest.
    public var challengeId: String
    public var nonce: String
    public var transactionDigest: String?

    public init(
        operationId: String, operation: OperationKind, transaction: Transaction?, bindingMessage: String?,
        expiresAt: Date, challengeId: String, nonce: String, transactionDigest: String?
    ) {
        self.operationId = operationId
        self.operation = operation
        self.transaction = transaction
        self.bindingMessage = bindingMessage
        self.expiresAt = expiresAt
        self.challengeId = challengeId
        self.nonce = nonce
        self.transactionDigest = transactionDigest
    }
}

/// `GET /v1/operations/pending`.
package struct PendingOperationsResponse: Codable, Sendable, Equatable {
    package var operations: [PendingOperation]

    package init(operations: [PendingOperation]) { self.operations = operations }
}

/// `POST /v1/operations/{id}/approve`: the two signatures over the operation's challenge
/// payload, as a cold-start or payment proof carries them.
package struct ApproveOperationRequest: Codable, Sendable, Equatable {
    /// base64url raw `r||s` by the possession key, over the `device_key` payload.
    package var deviceKeySignature: String
    /// base64url raw `r||s` by the biometry-gated key, over the `biometric_key` payload.
    package var biometricKeySignature: String

    package init(deviceKeySignature: String, biometricKeySignature: String) {
        self.deviceKeySignature = deviceKeySignature
        self.biometricKeySignature = biometricKeySignature
    }
}

/// `POST /v1/operations/{id}/reject`.
package struct RejectOperationRequest: Codable, Sendable, Equatable {
    package var reason: OperationRejectReason

    package init(reason: OperationRejectReason) { self.reason = reason }
}

/// The phone's answer to approve or reject: the operation's final status.
public struct OperationDecisionResponse: Codable, Sendable, Equatable {
    public var operationId: String
    public var status: OperationStatus

    public init(operationId: String, status: OperationStatus) {
        self.operationId = operationId
        self.status = status
    }
}

/// `POST /v1/operations/nonce`: a single-use nonce for one device-signed request.
package struct DeviceNonceResponse: Codable, Sendable, Equatable {
    package var nonce: String
    /// Seconds it stays usable.
    package var expiresIn: Int

    package init(nonce: String, expiresIn: Int) {
        self.nonce = nonce
        self.expiresIn = expiresIn
    }
}
