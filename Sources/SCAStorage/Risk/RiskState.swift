import Foundation
import SCACore

/// What the risk engine remembers about one user, stored as one record and changed only by the
/// pure transitions below, inside one store operation (`updateRiskState`) or written back only
/// while it is still the record the decision read (``RiskStateChange``), so that parallel
/// payments of one user are decided one after the other.
package struct RiskState: RiskStateValue {
    package static let keyPrefix = "user:"

    /// Payments without SCA since the last SCA for a payment (art. 16).
    package var lowValue: LowValueCounters
    /// The last SCA for account information (art. 10).
    package var accountInfoSCAAt: Date?
    /// Recurring series by payee key (``Transaction/Payee/digest``): the amount and currency
    /// the first payment was authenticated with (art. 14).
    package var series: [String: RecurringSeries]
    /// The user's trusted beneficiaries (art. 13), oldest first.
    package var beneficiaries: [TrustedBeneficiary]
    /// The user's last rejection of an operation as `not_me`: a fraud signal
    /// (`reported_not_me`) while it is recent.
    package var notMeReportedAt: Date?

    /// Trusted beneficiaries one user may have: the list is read on every payment.
    package static let maxBeneficiaries = 100
    /// Recurring series one user may have; the oldest is forgotten beyond.
    package static let maxSeries = 100

    package init() {
        lowValue = LowValueCounters()
        accountInfoSCAAt = nil
        series = [:]
        beneficiaries = []
    }

    /// A payment's exemption once the counters are consulted: a low-value candidate only if
    /// the counters admit it; any payment let through without SCA is counted.
    /// - Returns: the exemption granted (nil: SCA) and the counters as they were.
    package mutating func admitPayment(
        candidate: Exemption?, amountMinor: Int64, lowValue rules: LowValueRules?
    ) -> (granted: Exemption?, countersBefore: LowValueCounters) {
        let before = lowValue
        guard let candidate else { return (nil, before) }
        if candidate == .lowValue {
            guard let rules, lowValue.admits(amountMinor, rules: rules) else { return (nil, before) }
        }
        lowValue.add(amountMinor)
        return (candidate, before)
    }

    /// A payment was authenticated with SCA: the counters start again, and a payment that opens
    /// (or changes) a recurring series records its terms.
    package mutating func paymentAuthenticated(seriesPayee: String?, amount: String, currency: String, at now: Date) {
        lowValue.reset()
        guard let seriesPayee else { return }
        series[seriesPayee] = RecurringSeries(amount: amount, currency: currency, startedAt: now)
        if series.count > Self.maxSeries, let oldest = series.min(by: { $0.value.startedAt < $1.value.startedAt })?.key {
            series[oldest] = nil
        }
    }

    /// Whether a payment continues a recurring series: same payee, same amount, same currency.
    package func continuesSeries(payee: String, amount: String, currency: String) -> Bool {
        guard let terms = series[payee] else { return false }
        return terms.amount == amount && terms.currency == currency
    }

    /// Adds a trusted beneficiary, or returns the one with this IBAN already there.
    /// - Returns: nil when the list is full.
    package mutating func addBeneficiary(_ candidate: TrustedBeneficiary) -> TrustedBeneficiary? {
        if let existing = beneficiaries.first(where: { $0.iban == candidate.iban }) { return existing }
        guard beneficiaries.count < Self.maxBeneficiaries else { return nil }
        beneficiaries.append(candidate)
        return candidate
    }

    /// - Returns: the removed beneficiary, nil when there is none with that id.
    package mutating func removeBeneficiary(id: String) -> TrustedBeneficiary? {
        guard let index = beneficiaries.firstIndex(where: { $0.id == id }) else { return nil }
        return beneficiaries.remove(at: index)
    }

    /// Whether payments to `iban` (compact form) go to a trusted beneficiary.
    package func trusts(iban: String?) -> Bool {
        guard let iban else { return false }
        return beneficiaries.contains { $0.iban == iban }
    }
}

/// The terms of a recurring series, fixed by its first, authenticated, payment.
package struct RecurringSeries: Codable, Sendable, Equatable {
    package var amount: String
    package var currency: String
    package var startedAt: Date

    package init(amount: String, currency: String, startedAt: Date) {
        self.amount = amount
        self.currency = currency
        self.startedAt = startedAt
    }
}

/// A payee the user trusts (art. 13), known by its IBAN (compact, upper case).
package struct TrustedBeneficiary: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var iban: String
    package var addedAt: Date

    package init(id: String, name: String, iban: String, addedAt: Date) {
        self.id = id
        self.name = name
        self.iban = iban
        self.addedAt = addedAt
    }
}
