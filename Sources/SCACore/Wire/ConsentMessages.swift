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
package struct CreateConsentRequest: Codable, Sendable, Equatable {
    package var operation: ConsentOperationKind
    /// For `payment`.
    package var transaction: Transaction?
    /// For `beneficiary_add`.
    package var beneficiary: ConsentBeneficiary?
    /// For `settings_change`: a short sentence the user reads, e.g. "Change your phone number".
    package var description: String?
    /// Where the user is sent back; must be registered for the client.
    package var consentRedirectUrl: String
    /// The partner's own id of what the consent is for; echoed in the redirect.
    package var resourceId: String?

    package init(
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
package struct ConsentResponse: Codable, Sendable, Equatable {
    package var consentId: String
    /// The hosted page to send the user to.
    package var consentUrl: String
    package var status: ConsentStatus
    package var operation: ConsentOperationKind
    package var transaction: Transaction?
    package var beneficiary: ConsentBeneficiary?
    package var description: String?
    package var consentRedirectUrl: String
    package var resourceId: String?
    package var createdAt: Date
    package var expiresAt: Date
    /// Once `Accepted`: the operation-scoped access token (its `txn` binds a payment). The
    /// partner checks and consumes it once through `POST /v1/tokens/introspect`.
    package var accessToken: String?

    package init(
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
