import Foundation
import SCACore

/// A decoupled operation as stored: what a backend asked the user to approve on
/// their bound phone, the challenge that approval completes, and the one final status.
public struct OperationRecord: Sendable, Equatable {
    public var id: String
    public var userID: String
    /// The partner client that created it; nil for an admin key.
    public var clientID: String?
    /// The device asked to approve (active, with a biometric key, when created).
    public var deviceID: String
    /// The operation-scoped challenge: approval submits the device-key and biometric-key
    /// proofs to it, so counters, lockout, dynamic linking and tokens are the challenge's.
    public var challengeID: String
    public var operation: OperationKind
    public var transaction: Transaction?
    public var bindingMessage: String?
    public var status: OperationStatus
    public var rejectReason: OperationRejectReason?
    public var createdAt: Date
    public var expiresAt: Date
    /// When it reached its final status.
    public var finishedAt: Date?
    /// Once approved: the operation-scoped access token, sealed with the server key.
    public var sealedToken: [UInt8]?
    /// CIBA ping mode: the client's notification token and the request id to announce, sealed
    /// with the server key; nil when nobody is pinged.
    public var sealedNotification: [UInt8]?
    /// Compare-and-set version, as challenges have.
    public var version: Int

    public init(
        id: String, userID: String, clientID: String? = nil, deviceID: String, challengeID: String,
        operation: OperationKind, transaction: Transaction? = nil, bindingMessage: String? = nil,
        status: OperationStatus = .pending, rejectReason: OperationRejectReason? = nil, createdAt: Date, expiresAt: Date,
        finishedAt: Date? = nil, sealedToken: [UInt8]? = nil, sealedNotification: [UInt8]? = nil, version: Int = 0
    ) {
        self.sealedNotification = sealedNotification
        self.id = id
        self.userID = userID
        self.clientID = clientID
        self.deviceID = deviceID
        self.challengeID = challengeID
        self.operation = operation
        self.transaction = transaction
        self.bindingMessage = bindingMessage
        self.status = status
        self.rejectReason = rejectReason
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.finishedAt = finishedAt
        self.sealedToken = sealedToken
        self.version = version
    }
}
