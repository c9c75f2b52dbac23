import Foundation

/// `POST /v1/me/beneficiaries`: the payee to trust, exactly as the `beneficiary_add`
/// challenge bound it.
package struct AddBeneficiaryRequest: Codable, Sendable, Equatable {
    package var name: String
    package var iban: String

    package init(name: String, iban: String) {
        self.name = name
        self.iban = iban
    }
}

/// A trusted beneficiary as its owner sees it (the IBAN masked).
package struct BeneficiaryResponse: Codable, Sendable, Equatable {
    package var beneficiaryId: String
    package var name: String
    package var iban: String
    package var addedAt: Date

    package init(beneficiaryId: String, name: String, iban: String, addedAt: Date) {
        self.beneficiaryId = beneficiaryId
        self.name = name
        self.iban = iban
        self.addedAt = addedAt
    }
}

/// `POST /admin/v1/fraud-reports`: a payment found fraudulent or unauthorised (RTS art. 19).
public struct FraudReportRequest: Codable, Sendable, Equatable {
    /// The payment's `txn` (transaction digest), when the server authorised it.
    public var txn: String?
    public var amount: String
    public var currency: String
    public var type: PaymentType

    public init(txn: String? = nil, amount: String, currency: String, type: PaymentType) {
        self.txn = txn
        self.amount = amount
        self.currency = currency
        self.type = type
    }
}

/// `201`: the report and the quarter it counts in.
public struct FraudReportResponse: Codable, Sendable, Equatable {
    public var reportId: String
    public var quarter: String
    /// Whether `txn` named a payment this server authorised (its date sets the quarter).
    public var matchedPayment: Bool

    public init(reportId: String, quarter: String, matchedPayment: Bool) {
        self.reportId = reportId
        self.quarter = quarter
        self.matchedPayment = matchedPayment
    }
}

/// `GET /admin/v1/risk/report`: the fraud rates of a quarter and the exemptions in force.
public struct RiskReport: Codable, Sendable, Equatable {
    public var quarter: String
    public var types: [TypeRate]
    /// Each exemption with whether it is applied now and why.
    public var exemptions: [ExemptionStatus]

    public init(quarter: String, types: [TypeRate], exemptions: [ExemptionStatus]) {
        self.quarter = quarter
        self.types = types
        self.exemptions = exemptions
    }

    /// The rate of one payment type in the quarter, against each TRA band.
    public struct TypeRate: Codable, Sendable, Equatable {
        public var type: PaymentType
        /// EUR value of all remote payments authorised in the quarter.
        public var volume: String
        /// EUR value reported fraudulent.
        public var fraud: String
        /// Fraud over volume, in percent (6 decimals); `0` with no volume.
        public var ratePercent: String
        public var bands: [Band]
        /// Whether any TRA band of this type is stopped (art. 20) at the end of the quarter.
        public var traSuspended: Bool

        public init(type: PaymentType, volume: String, fraud: String, ratePercent: String, bands: [Band], traSuspended: Bool) {
            self.type = type
            self.volume = volume
            self.fraud = fraud
            self.ratePercent = ratePercent
            self.bands = bands
            self.traSuspended = traSuspended
        }
    }

    /// One TRA band: payments up to `maxAmount` EUR when the rate is at most `referencePercent`.
    public struct Band: Codable, Sendable, Equatable {
        public var maxAmount: String
        public var referencePercent: String
        /// The quarter's rate is above the reference: flagged.
        public var exceeded: Bool
        /// TRA is stopped for this band at the end of the quarter: this quarter and the one
        /// before were both above the reference (art. 20); one quarter at or below resumes it.
        public var suspended: Bool

        public init(maxAmount: String, referencePercent: String, exceeded: Bool, suspended: Bool) {
            self.maxAmount = maxAmount
            self.referencePercent = referencePercent
            self.exceeded = exceeded
            self.suspended = suspended
        }
    }

    public struct ExemptionStatus: Codable, Sendable, Equatable {
        public var exemption: Exemption
        public var applied: Bool
        public var reason: String

        public init(exemption: Exemption, applied: Bool, reason: String) {
            self.exemption = exemption
            self.applied = applied
            self.reason = reason
        }
    }
}
