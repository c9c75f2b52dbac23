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
public struct BeneficiaryResponse: Codable, Sendable, Equatable {
    public var beneficiaryId: String
    public var name: String
    public var iban: String
    public var addedAt: Date

    public init(beneficiaryId: String, name: String, iban: String, addedAt: Date) {
        self.beneficiaryId = beneficiaryId
        self.name = name
        self.iban = iban
        self.addedAt = addedAt
    }
}

/// `POST /admin/v1/fraud-reports`: a payment found fraudulent or unauthorised (RTS art. 19).
package struct FraudReportRequest: Codable, Sendable, Equatable {
    /// The payment's `txn` (transaction digest), when the server authorised it.
    package var txn: String?
    package var amount: String
    package var currency: String
    package var type: PaymentType

    package init(txn: String? = nil, amount: String, currency: String, type: PaymentType) {
        self.txn = txn
        self.amount = amount
        self.currency = currency
        self.type = type
    }
}

/// `201`: the report and the quarter it counts in.
package struct FraudReportResponse: Codable, Sendable, Equatable {
    package var reportId: String
    package var quarter: String
    /// Whether `txn` named a payment this server authorised (its date sets the quarter).
    package var matchedPayment: Bool

    package init(reportId: String, quarter: String, matchedPayment: Bool) {
        self.reportId = reportId
        self.quarter = quarter
        self.matchedPayment = matchedPayment
    }
}

/// `GET /admin/v1/risk/report`: the fraud rates of a quarter and the exemptions in force.
package struct RiskReport: Codable, Sendable, Equatable {
    package var quarter: String
    package var types: [TypeRate]
    /// Each exemption with whether it is applied now and why.
    package var exemptions: [ExemptionStatus]

    package init(quarter: String, types: [TypeRate], exemptions: [ExemptionStatus]) {
        self.quarter = quarter
        self.types = types
        self.exemptions = exemptions
    }

    /// The rate of one payment type in the quarter, against each TRA band.
    package struct TypeRate: Codable, Sendable, Equatable {
        package var type: PaymentType
        /// EUR value of all remote payments authorised in the quarter.
        package var volume: String
        /// EUR value reported fraudulent.
        package var fraud: String
        /// Fraud over volume, in percent (6 decimals); `0` with no volume.
        package var ratePercent: String
        package var bands: [Band]
        /// Whether any TRA band of this type is stopped (art. 20) at the end of the quarter.
        package var traSuspended: Bool

        package init(type: PaymentType, volume: String, fraud: String, ratePercent: String, bands: [Band], traSuspended: Bool) {
            self.type = type
            self.volume = volume
            self.fraud = fraud
            self.ratePercent = ratePercent
            self.bands = bands
            self.traSuspended = traSuspended
        }
    }

    /// One TRA band: payments up to `maxAmount` EUR when the rate is at most `referencePercent`.
    package struct Band: Codable, Sendable, Equatable {
        package var maxAmount: String
        package var referencePercent: String
        /// The quarter's rate is above the reference: flagged.
        package var exceeded: Bool
        /// TRA is stopped for this band at the end of the quarter: this quarter and the one
        /// before were both above the reference (art. 20); one quarter at or below resumes it.
        package var suspended: Bool

        package init(maxAmount: String, referencePercent: String, exceeded: Bool, suspended: Bool) {
            self.maxAmount = maxAmount
            self.referencePercent = referencePercent
            self.exceeded = exceeded
            self.suspended = suspended
        }
    }

    package struct ExemptionStatus: Codable, Sendable, Equatable {
        package var exemption: Exemption
        package var applied: Bool
        package var reason: String

        package init(exemption: Exemption, applied: Bool, reason: String) {
            self.exemption = exemption
            self.applied = applied
            self.reason = reason
        }
    }
}
