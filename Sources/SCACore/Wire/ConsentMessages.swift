import Foundation

/// The beneficiary a `beneficiary_add` consent adds.
public struct ConsentBeneficiary: Codable, Sendable, Equatable {
    public var name: String
    public var iban: String

    public init(name: String, iban: String) {
        self.name = name
        self.iban = iban
    }
}

/// `POST /v1/consents`: one operation for the user to approve on the hosted page.
public struct CreateConsentRequest: Codable, Sendable, Equatable {
    public var operation: ConsentOperationKind
    /// For `payment`.
    public var transaction: Transaction?
    /// For `beneficiary_add`.
    public var beneficiary: ConsentBeneficiary?
    /// For `settings_change`: a short sentence the user reads, e.g. "Change your phone number".
    public var description: String?
    /// Where the user is sent back; must be registered for the client.
    public var consentRedirectUrl: String
    /// The partner's own id of what the consent is for; echoed in the redirect.
    public var resourceId: String?

    public init(
        operation: ConsentOperationKind, transaction: Transaction? = nil, beneficiary: ConsentBeneficiary? = nil,
        description: String? = nil, consentRedirectUrl: String, resourceId: String? = nil
    ) {
        self.operation = operation
        self.transaction = transaction
        self.beneficiary = beneficiary
        self.description = description
        self.consentRedirectUrl = consentRedirectUrl
        self.resourceId = resourceId
    }
}

/// A consent as its partner sees it.
public struct ConsentResponse: Codable, Sendable, Equatable {
    public var consentId: String
    /// The hosted page to send the user to.
    public var consentUrl: String
    public var status: ConsentStatus
    public var operation: ConsentOperationKind
    public var transaction: Transaction?
    public var beneficiary: ConsentBeneficiary?
    public var description: String?
    public var consentRedirectUrl: String
    public var resourceId: String?
    public var createdAt: Date
    public var expiresAt: Date
    /// Once `Accepted`: the operation-scoped access token (its `txn` binds a payment). The
    /// partner checks and consumes it once through `POST /v1/tokens/introspect`.
    public var accessToken: String?

    public init(
        consentId: String, consentUrl: String, status: ConsentStatus, operation: ConsentOperationKind,
        transaction: Transaction?, beneficiary: ConsentBeneficiary?, description: String?, consentRedirectUrl: String,
        resourceId: String?, createdAt: Date, expiresAt: Date, accessToken: String? = nil
    ) {
        self.consentId = consentId
        self.consentUrl = consentUrl
        self.status = status
        self.operation = operation
        self.transaction = transaction
        self.beneficiary = beneficiary
        self.description = description
        self.consentRedirectUrl = consentRedirectUrl
        self.resourceId = resourceId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.accessToken = accessToken
    }
}
