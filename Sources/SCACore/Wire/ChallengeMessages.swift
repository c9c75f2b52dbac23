import Foundation

/// Who a challenge is for: by e-mail or by user id.
public struct UserReference: Codable, Sendable, Equatable {
    public var email: String?
    public var userId: String?

    public init(email: String? = nil, userId: String? = nil) {
        self.email = email
        self.userId = userId
    }
}

/// The device a challenge names, so that its keys can be offered.
public struct DeviceReference: Codable, Sendable, Equatable {
    public var deviceId: String

    public init(deviceId: String) { self.deviceId = deviceId }
}

/// `POST /v1/challenges`: what the client wants to do.
package struct CreateChallengeRequest: Codable, Sendable, Equatable {
    package var operation: OperationKind
    package var user: UserReference
    package var device: DeviceReference?
    package var transaction: Transaction?
    // Risk and exemptions.
    /// `beneficiary_add` only: the payee to trust (IBAN required); bound like a transaction.
    package var beneficiary: Transaction.Payee?
    /// `payment` only: the kind of payment, for fraud rates and TRA bands (default `credit_transfer`).
    package var paymentType: PaymentType?
    /// `payment` only: the payment belongs to a series with the same amount and payee (RTS art. 14).
    package var recurring: Bool?
    // Passkeys.
    /// `passkey` with an empty `user` (no e-mail, no user id): a `login` challenge for a
    /// discoverable passkey, whose assertion names the user.
    package var methodHint: AuthenticationMethod?

    package init(
        operation: OperationKind, user: UserReference, device: DeviceReference? = nil,
        transaction: Transaction? = nil, beneficiary: Transaction.Payee? = nil, paymentType: PaymentType? = nil,
        recurring: Bool? = nil, methodHint: AuthenticationMethod? = nil
    ) {
        self.methodHint = methodHint
        self.operation = operation
        self.user = user
        self.device = device
        self.transaction = transaction
        self.beneficiary = beneficiary
        self.paymentType = paymentType
        self.recurring = recurring
    }
}

/// One method a challenge accepts, with the category it counts towards.
public struct OfferedMethod: Codable, Sendable, Equatable {
    public var id: AuthenticationMethod
    public var category: Category

    public init(_ method: AuthenticationMethod) {
        self.id = method
        self.category = method.category
    }
}

/// What the user is shown before approving a payment: amount and payee, the IBAN masked.
public struct TransactionDisplay: Codable, Sendable, Equatable {
    public var amount: String
    public var currency: String
    public var payee: String
    public var iban: String?

    public init(amount: String, currency: String, payee: String, iban: String?) {
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.iban = iban
    }
}

/// A challenge as the server describes it (`201` on creation, `200` on `GET`).
public struct ChallengeResponse: Codable, Sendable, Equatable {
    public var challengeId: String
    public var operation: OperationKind
    public var state: ChallengeState
    public var expiresAt: Date
    public var requiredCategories: Int
    public var satisfiedCategories: [Category]
    public var verdict: Verdict
    public var methods: [OfferedMethod]
    public var nonce: String
    public var transactionDigest: String?
    public var display: TransactionDisplay?
    // Risk and exemptions.
    /// The exemption under which the challenge completed without proofs (`requiredCategories` 0).
    public var exemption: Exemption?
    /// The tokens of an exempted challenge, in the answer that created it (never again).
    public var tokens: TokenResponse?
    // Passkeys.
    /// `PublicKeyCredentialRequestOptions` for a pending challenge offering `passkey`.
    public var passkey: PasskeyRequestOptions?

    public init(
        challengeId: String, operation: OperationKind, state: ChallengeState, expiresAt: Date,
        requiredCategories: Int, satisfiedCategories: [Category], verdict: Verdict,
        methods: [OfferedMethod], nonce: String, transactionDigest: String?,
        display: TransactionDisplay?, exemption: Exemption? = nil, tokens: TokenResponse? = nil
    ) {
        self.exemption = exemption
        self.tokens = tokens
        self.challengeId = challengeId
        self.operation = operation
        self.state = state
        self.expiresAt = expiresAt
        self.requiredCategories = requiredCategories
        self.satisfiedCategories = satisfiedCategories
        self.verdict = verdict
        self.methods = methods
        self.nonce = nonce
        self.transactionDigest = transactionDigest
        self.display = display
    }
}

/// `POST /v1/challenges/{id}/otp`: which code to send.
package struct SendCodeRequest: Codable, Sendable, Equatable {
    package var method: AuthenticationMethod

    package init(method: AuthenticationMethod) { self.method = method }
}

/// `202`: where the code went (masked) and when another may be asked for.
public struct CodeSentResponse: Codable, Sendable, Equatable {
    public var sentTo: String
    public var resendAfter: Int

    public init(sentTo: String, resendAfter: Int) {
        self.sentTo = sentTo
        self.resendAfter = resendAfter
    }
}
