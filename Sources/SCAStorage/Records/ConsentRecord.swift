import Foundation
import SCACore

/// One operation a partner asked the user to approve on the hosted consent page.
public struct ConsentRecord: Sendable, Equatable {
    public var id: String
    public var clientID: String
    public var userID: String
    public var operation: ConsentOperationKind
    public var transaction: Transaction?
    public var beneficiary: ConsentBeneficiary?
    public var summary: String?
    public var redirectURL: String
    public var resourceID: String?
    public var status: ConsentStatus
    public var createdAt: Date
    public var expiresAt: Date
    public var updatedAt: Date
    /// The challenge the page runs, once opened.
    public var challengeID: String?
    /// Once accepted: the operation-scoped access token, sealed with the server key.
    public var sealedToken: [UInt8]?
    /// Compare-and-set version, as challenges have.
    public var version: Int

    public init(
        id: String, clientID: String, userID: String, operation: ConsentOperationKind, transaction: Transaction? = nil,
        beneficiary: ConsentBeneficiary? = nil, summary: String? = nil, redirectURL: String, resourceID: String? = nil,
        status: ConsentStatus = .created, createdAt: Date, expiresAt: Date, updatedAt: Date? = nil,
        challengeID: String? = nil, sealedToken: [UInt8]? = nil, version: Int = 0
    ) {
        self.id = id
        self.clientID = clientID
        self.userID = userID
        self.operation = operation
        self.transaction = transaction
        self.beneficiary = beneficiary
        self.summary = summary
        self.redirectURL = redirectURL
        self.resourceID = resourceID
        self.status = status
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.updatedAt = updatedAt ?? createdAt
        self.challengeID = challengeID
        self.sealedToken = sealedToken
        self.version = version
    }
}
