import Foundation
import SCACore

/// A payment the risk engine decided on: recorded when its challenge opens, authorised at once
/// when exempt, or when its challenge completes with SCA. Authorised payments are the history
/// the monitoring signals compare with, and the volume of the fraud rates (art. 19).
public struct RiskPaymentRecord: Sendable, Equatable {
    /// The challenge's id: one payment per challenge.
    public var challengeID: String
    public var userID: String
    public var createdAt: Date
    /// nil until authorised.
    public var authorisedAt: Date?
    /// EUR minor units (converted and rounded up for other currencies).
    public var amountMinor: Int64
    public var amount: String
    public var currency: String
    public var type: PaymentType
    /// ``Transaction/Payee/digest``.
    public var payeeKey: String
    public var iban: String?
    /// The transaction's digest (the token's `txn`).
    public var transactionDigest: String
    public var clientAddress: String?
    public var deviceID: String?
    /// The exemption it went under; nil when authenticated with SCA.
    public var exemption: Exemption?
    /// The payment belongs to a recurring series (art. 14).
    public var recurring: Bool

    public init(
        challengeID: String, userID: String, createdAt: Date, authorisedAt: Date? = nil, amountMinor: Int64,
        amount: String, currency: String, type: PaymentType, payeeKey: String, iban: String? = nil,
        transactionDigest: String, clientAddress: String? = nil, deviceID: String? = nil, exemption: Exemption? = nil,
        recurring: Bool = false
    ) {
        self.challengeID = challengeID
        self.userID = userID
        self.createdAt = createdAt
        self.authorisedAt = authorisedAt
        self.amountMinor = amountMinor
        self.amount = amount
        self.currency = currency
        self.type = type
        self.payeeKey = payeeKey
        self.iban = iban
        self.transactionDigest = transactionDigest
        self.clientAddress = clientAddress
        self.deviceID = deviceID
        self.exemption = exemption
        self.recurring = recurring
    }

    /// Whether it counts in the fraud rates of art. 19: authenticated with SCA or exempted by
    /// TRA (payments under the other exemptions are outside the ratio the RTS defines).
    public var countsForFraudRate: Bool { exemption == nil || exemption == .tra }

    /// What it adds to the volume of the fraud rates: its amount, or nothing.
    package var fraudRateVolumeMinor: Int64 { countsForFraudRate ? amountMinor : 0 }
}

/// A payment reported fraudulent or unauthorised (art. 19), counted in the quarter of the
/// payment when the server authorised it, else in the quarter it was reported.
public struct FraudReportRecord: Sendable, Equatable {
    public var id: String
    /// The payment's `txn`, when given; one report per `txn`.
    public var transactionDigest: String?
    public var amountMinor: Int64
    public var type: PaymentType
    /// When the payment happened (its authorisation), else when it was reported.
    public var occurredAt: Date
    public var reportedAt: Date

    public init(
        id: String, transactionDigest: String?, amountMinor: Int64, type: PaymentType, occurredAt: Date, reportedAt: Date
    ) {
        self.id = id
        self.transactionDigest = transactionDigest
        self.amountMinor = amountMinor
        self.type = type
        self.occurredAt = occurredAt
        self.reportedAt = reportedAt
    }
}
