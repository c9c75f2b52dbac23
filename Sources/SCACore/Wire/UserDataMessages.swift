import Foundation

/// `GET /admin/v1/users/{id}/export` and `sca-server user export`: everything stored about one
/// user (GDPR art. 15, and art. 20 as JSON), without a secret: no password or PIN hash, no TOTP
/// seed, no key, no code, no token. What the user is, what the user holds (devices, passkeys),
/// what the user did (sessions, partner sign-ins, consents, operations, payments) and the audit
/// events that name the user.
package struct UserDataExport: Codable, Sendable, Equatable {
    package var exportedAt: Date
    /// The account: e-mail, phones, roles, the methods set up (never their secrets), the lock,
    /// the devices.
    package var user: UserResponse
    package var profile: ExportedProfile
    package var passkeys: [PasskeyResponse]
    package var sessions: [ExportedSession]
    /// Each sign-in to a partner: which partner, what it was granted, when.
    package var partnerSignIns: [ExportedSignIn]
    package var consents: [ExportedConsent]
    package var operations: [ExportedOperation]
    /// The payments the risk engine recorded (last 90 days' monitoring and the fraud rates).
    package var payments: [ExportedPayment]
    /// The audit entries that name the user, in the chain's order, with their hashes.
    package var auditEvents: [JSONValue]
    /// What is left of the recovery sheet, never its code or a PUK; nil without one.
    package var recoverySheet: RecoverySheetStatusResponse?

    package init(
        exportedAt: Date, user: UserResponse, profile: ExportedProfile, passkeys: [PasskeyResponse],
        sessions: [ExportedSession], partnerSignIns: [ExportedSignIn], consents: [ExportedConsent],
        operations: [ExportedOperation], payments: [ExportedPayment], auditEvents: [JSONValue],
        recoverySheet: RecoverySheetStatusResponse? = nil
    ) {
        self.recoverySheet = recoverySheet
        self.exportedAt = exportedAt
        self.user = user
        self.profile = profile
        self.passkeys = passkeys
        self.sessions = sessions
        self.partnerSignIns = partnerSignIns
        self.consents = consents
        self.operations = operations
        self.payments = payments
        self.auditEvents = auditEvents
    }
}

package struct ExportedProfile: Codable, Sendable, Equatable {
    package var name: String?
    package var locale: String?
    package var zoneinfo: String?
    package var attributes: [String: String]

    package init(name: String?, locale: String?, zoneinfo: String?, attributes: [String: String]) {
        (self.name, self.locale, self.zoneinfo, self.attributes) = (name, locale, zoneinfo, attributes)
    }
}

package struct ExportedSession: Codable, Sendable, Equatable {
    package var sessionId: String
    package var operation: OperationKind
    /// The partner the session's tokens were issued to; absent for the bank's own.
    package var clientId: String?
    package var createdAt: Date
    package var lastUsedAt: Date
    package var revokedAt: Date?
    /// Its tokens are bound to a key of the partner's (DPoP).
    package var keyBound: Bool

    package init(
        sessionId: String, operation: OperationKind, clientId: String?, createdAt: Date, lastUsedAt: Date, revokedAt: Date?,
        keyBound: Bool
    ) {
        (self.sessionId, self.operation, self.clientId) = (sessionId, operation, clientId)
        (self.createdAt, self.lastUsedAt, self.revokedAt, self.keyBound) = (createdAt, lastUsedAt, revokedAt, keyBound)
    }
}

package struct ExportedSignIn: Codable, Sendable, Equatable {
    package var clientId: String
    package var scopes: [String]
    package var signedInAt: Date
    package var redirectUri: String
    /// When the partner took its tokens; absent when it never did.
    package var redeemedAt: Date?

    package init(clientId: String, scopes: [String], signedInAt: Date, redirectUri: String, redeemedAt: Date?) {
        (self.clientId, self.scopes, self.signedInAt, self.redirectUri, self.redeemedAt) =
            (clientId, scopes, signedInAt, redirectUri, redeemedAt)
    }
}

package struct ExportedConsent: Codable, Sendable, Equatable {
    package var consentId: String
    package var clientId: String
    package var operation: ConsentOperationKind
    package var status: ConsentStatus
    package var summary: String?
    package var transaction: Transaction?
    package var beneficiary: ConsentBeneficiary?
    package var createdAt: Date
    package var updatedAt: Date

    package init(
        consentId: String, clientId: String, operation: ConsentOperationKind, status: ConsentStatus, summary: String?,
        transaction: Transaction?, beneficiary: ConsentBeneficiary?, createdAt: Date, updatedAt: Date
    ) {
        (self.consentId, self.clientId, self.operation, self.status, self.summary) = (consentId, clientId, operation, status, summary)
        (self.transaction, self.beneficiary, self.createdAt, self.updatedAt) = (transaction, beneficiary, createdAt, updatedAt)
    }
}

package struct ExportedOperation: Codable, Sendable, Equatable {
    package var operationId: String
    /// The partner that asked; absent for the bank's own back end.
    package var clientId: String?
    package var deviceId: String
    package var operation: OperationKind
    package var status: OperationStatus
    package var transaction: Transaction?
    package var bindingMessage: String?
    package var createdAt: Date
    package var finishedAt: Date?

    package init(
        operationId: String, clientId: String?, deviceId: String, operation: OperationKind, status: OperationStatus,
        transaction: Transaction?, bindingMessage: String?, createdAt: Date, finishedAt: Date?
    ) {
        (self.operationId, self.clientId, self.deviceId, self.operation, self.status) = (operationId, clientId, deviceId, operation, status)
        (self.transaction, self.bindingMessage, self.createdAt, self.finishedAt) = (transaction, bindingMessage, createdAt, finishedAt)
    }
}

package struct ExportedPayment: Codable, Sendable, Equatable {
    package var amount: String
    package var currency: String
    package var iban: String?
    package var createdAt: Date
    package var authorisedAt: Date?
    /// The address the payment was made from, as the risk engine kept it.
    package var clientAddress: String?
    package var deviceId: String?

    package init(
        amount: String, currency: String, iban: String?, createdAt: Date, authorisedAt: Date?, clientAddress: String?, deviceId: String?
    ) {
        (self.amount, self.currency, self.iban, self.createdAt) = (amount, currency, iban, createdAt)
        (self.authorisedAt, self.clientAddress, self.deviceId) = (authorisedAt, clientAddress, deviceId)
    }
}

/// What erasing a user removed and what stays without naming them:
/// `DELETE /admin/v1/users/{id}` and `sca-server user erase`.
package struct UserErasureSummary: Codable, Sendable, Equatable {
    package var userId: String
    /// Rows deleted: the user, devices, passkeys, sessions, challenges, consents and the rest.
    package var rowsDeleted: Int
    /// Payments kept for the fraud-rate figures, their payer, address, device and IBAN cleared.
    package var paymentsPseudonymised: Int
    /// Audit entries whose personal facts were cleared (their digest stays in the chain).
    package var auditEntriesErased: Int
    /// Audit entries written before personal facts were sealed: their address is part of the
    /// chain and stays until the retention cut archives them.
    package var auditEntriesUnsealed: Int

    package init(userId: String, rowsDeleted: Int, paymentsPseudonymised: Int, auditEntriesErased: Int, auditEntriesUnsealed: Int) {
        self.userId = userId
        self.rowsDeleted = rowsDeleted
        self.paymentsPseudonymised = paymentsPseudonymised
        self.auditEntriesErased = auditEntriesErased
        self.auditEntriesUnsealed = auditEntriesUnsealed
    }
}
