import Foundation

/// `GET /v1/me/overview`: everything the user's own account page and `sca account` list, in one
/// answer: what can act for the user (devices, passkeys, sessions, partners), whom they trust,
/// their way back in after a lost phone, and what happened lately.
public struct AccountOverviewResponse: Codable, Sendable, Equatable {
    public var userId: String
    public var email: String
    public var phone: String?
    /// Every device not removed, oldest first.
    public var devices: [DeviceResponse]
    public var passkeys: [PasskeyResponse]
    /// The user's own open sessions (the bank's app, `sca`, the account page), newest use first;
    /// a partner's are under ``partners``.
    public var sessions: [AccountSessionResponse]
    /// The partners that hold an open session of the user, each once.
    public var partners: [PartnerAccessResponse]
    /// What partners asked the user to approve, newest first.
    public var consents: [AccountConsentResponse]
    public var beneficiaries: [BeneficiaryResponse]
    /// What is left of the recovery sheet; nil when the user has none.
    public var recoverySheet: RecoverySheetStatusResponse?
    /// Recent activity, newest first.
    public var activity: [AccountActivityResponse]
    /// New e-mail addresses or phone numbers waiting for the code sent to them.
    public var pendingContactChanges: [PendingContactChangeResponse]
    /// Whether the user has an authenticator app (TOTP) set up.
    public var hasAuthenticatorApp: Bool
    /// Whether the user has a PIN.
    public var hasPIN: Bool

    public init(
        userId: String, email: String, phone: String?, devices: [DeviceResponse], passkeys: [PasskeyResponse],
        sessions: [AccountSessionResponse], partners: [PartnerAccessResponse], consents: [AccountConsentResponse],
        beneficiaries: [BeneficiaryResponse], recoverySheet: RecoverySheetStatusResponse?,
        activity: [AccountActivityResponse], pendingContactChanges: [PendingContactChangeResponse] = [],
        hasAuthenticatorApp: Bool = false, hasPIN: Bool = false
    ) {
        self.pendingContactChanges = pendingContactChanges
        self.hasAuthenticatorApp = hasAuthenticatorApp
        self.hasPIN = hasPIN
        self.userId = userId
        self.email = email
        self.phone = phone
        self.devices = devices
        self.passkeys = passkeys
        self.sessions = sessions
        self.partners = partners
        self.consents = consents
        self.beneficiaries = beneficiaries
        self.recoverySheet = recoverySheet
        self.activity = activity
    }
}

/// One of the user's own open sessions.
public struct AccountSessionResponse: Codable, Sendable, Equatable {
    public var sessionId: String
    /// What the sign-in that opened it was for (`login`, `account_info`).
    public var operation: OperationKind
    public var createdAt: Date
    public var lastUsedAt: Date
    /// The session of the token that asked: ending it signs the caller out.
    public var current: Bool

    public init(sessionId: String, operation: OperationKind, createdAt: Date, lastUsedAt: Date, current: Bool) {
        self.sessionId = sessionId
        self.operation = operation
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}

/// A partner that can act for the user now: what the user's sign-ins granted it.
public struct PartnerAccessResponse: Codable, Sendable, Equatable {
    public var clientId: String
    /// The partner's name as the user read it on the sign-in page; its id when it is gone.
    public var clientName: String
    /// The OAuth scopes the user's sign-ins granted it (`openid`, `profile`, `consents`, …).
    public var scopes: [String]
    /// How many open sessions it holds.
    public var sessions: Int
    public var grantedAt: Date
    public var lastUsedAt: Date

    public init(clientId: String, clientName: String, scopes: [String], sessions: Int, grantedAt: Date, lastUsedAt: Date) {
        self.clientId = clientId
        self.clientName = clientName
        self.scopes = scopes
        self.sessions = sessions
        self.grantedAt = grantedAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A consent a partner asked for, as its user reads it.
public struct AccountConsentResponse: Codable, Sendable, Equatable {
    public var consentId: String
    public var clientId: String
    public var clientName: String
    public var operation: ConsentOperationKind
    public var status: ConsentStatus
    /// A payment's amount, currency and payee.
    public var amount: String?
    public var currency: String?
    public var payee: String?
    /// A new beneficiary's name.
    public var beneficiary: String?
    /// A described change, in the partner's words.
    public var summary: String?
    public var createdAt: Date
    public var expiresAt: Date
    /// Whether revoking it still changes something: an open one is refused, an accepted one's
    /// token stops working.
    public var revocable: Bool

    public init(
        consentId: String, clientId: String, clientName: String, operation: ConsentOperationKind, status: ConsentStatus, amount: String?,
        currency: String?, payee: String?, beneficiary: String?, summary: String?, createdAt: Date, expiresAt: Date,
        revocable: Bool
    ) {
        self.consentId = consentId
        self.clientId = clientId
        self.clientName = clientName
        self.operation = operation
        self.status = status
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.beneficiary = beneficiary
        self.summary = summary
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revocable = revocable
    }
}

/// What happened on the account, as its owner is told: never which element of a failed attempt
/// was wrong, and the address only as its network.
public struct AccountActivityResponse: Codable, Sendable, Equatable {
    public var time: Date
    public var kind: AccountActivityKind
    /// What the challenge was for, for a sign-in, a failed attempt or a payment.
    public var operation: OperationKind?
    /// A payment's amount, currency and payee.
    public var amount: String?
    public var currency: String?
    public var payee: String?
    /// The device or passkey added or removed, by its name.
    public var name: String?
    /// The client's network (``CoarseAddress``), when the event came with a request.
    public var network: String?

    public init(
        time: Date, kind: AccountActivityKind, operation: OperationKind? = nil, amount: String? = nil, currency: String? = nil,
        payee: String? = nil, name: String? = nil, network: String? = nil
    ) {
        self.time = time
        self.kind = kind
        self.operation = operation
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.name = name
        self.network = network
    }
}

/// The kinds of activity a user is shown. The set only grows.
public enum AccountActivityKind: String, Codable, Sendable, CaseIterable {
    case signIn = "sign_in"
    /// A round of proofs that failed: never which element was wrong.
    case failedAttempt = "failed_attempt"
    case locked
    case paymentApproved = "payment_approved"
    case deviceAdded = "device_added"
    case deviceRemoved = "device_removed"
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    case settingsChanged = "settings_changed"
    case recoverySheetIssued = "recovery_sheet_issued"
    case recovered
    case sessionsEnded = "sessions_ended"
    case partnerRevoked = "partner_revoked"
    case beneficiaryAdded = "beneficiary_added"
    case beneficiaryRemoved = "beneficiary_removed"
}

/// What ending sessions ended.
public struct SessionsEndedResponse: Codable, Sendable, Equatable {
    public var ended: Int

    public init(ended: Int) { self.ended = ended }
}

/// What revoking a partner's access ended.
public struct PartnerAccessRevokedResponse: Codable, Sendable, Equatable {
    public var clientId: String
    /// Its sessions that ended: every token it held stops working.
    public var sessionsEnded: Int
    /// Its open consents that were refused.
    public var consentsRefused: Int

    public init(clientId: String, sessionsEnded: Int, consentsRefused: Int) {
        self.clientId = clientId
        self.sessionsEnded = sessionsEnded
        self.consentsRefused = consentsRefused
    }
}
