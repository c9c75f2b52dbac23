import Foundation
import SCACore
import SCAStorage

/// The risk engine's settings: transaction monitoring (always on) and the RTS
/// exemptions, each off by default, with the RTS thresholds as defaults. A value beyond what
/// the RTS allows is refused at start-up.
package struct RiskSettings: Sendable {
    /// Art. 16: low-value remote payments.
    package var exemptLowValue = false
    /// EUR; at most 30 (art. 16(a)).
    package var lowValueMaxAmount = "30.00"
    /// `count` (art. 16(c)) or `cumulative` (art. 16(b)).
    package var lowValueLimit = LowValueLimit.count
    /// EUR since the last SCA, this payment included; at most 100 (art. 16(b)).
    package var lowValueMaxCumulative = "100.00"
    /// Payments without SCA since the last SCA, this one included; at most 5 (art. 16(c)).
    package var lowValueMaxCount = 5
    /// Art. 13: payments to trusted beneficiaries.
    package var exemptTrustedBeneficiaries = false
    /// Art. 14: later payments of a recurring series.
    package var exemptRecurring = false
    /// Art. 18: transaction risk analysis within the fraud-rate bands.
    package var exemptTRA = false
    /// Art. 10: account information after a recent SCA for it.
    package var exemptAccountInfo = false
    /// Days an SCA for account information lasts; at most 180 (art. 10).
    package var accountInfoExemptionDays = 180
    /// IBANs and device ids refused outright (art. 2: compromised or stolen elements).
    package var denyList: [String] = []
    /// Payments in the last hour above which `velocity_count` is raised.
    package var velocityMaxPerHour = 10
    /// EUR paid in the last 24 hours above which `velocity_amount` is raised.
    package var velocityMaxAmountPerDay = "5000.00"
    /// `unusual_amount` beyond this many times the user's largest recent payment.
    package var unusualAmountFactor = 10
    /// Hours during which a newly bound device raises `new_device`.
    package var newDeviceHours = 24
    /// Days after a user rejects an operation as `not_me` during which their payments and
    /// account access raise `reported_not_me` (no exemption: SCA every time). 0 turns it off.
    package var notMeSignalDays = 30

    package init() {}

    /// The exemptions switched on, with their thresholds in EUR minor units.
    var exemptionRules: ExemptionRules {
        ExemptionRules(
            lowValue: exemptLowValue
                ? LowValueRules(
                    maxAmountMinor: EURAmount.minorUnits(of: lowValueMaxAmount) ?? 3_000, limit: lowValueLimit,
                    maxCumulativeMinor: EURAmount.minorUnits(of: lowValueMaxCumulative) ?? 10_000, maxCount: lowValueMaxCount)
                : nil,
            trustedBeneficiaries: exemptTrustedBeneficiaries, recurring: exemptRecurring, tra: exemptTRA,
            accountInfoInterval: exemptAccountInfo ? TimeInterval(accountInfoExemptionDays) * 86_400 : nil)
    }

    var monitoringRules: MonitoringRules {
        var rules = MonitoringRules(
            denyList: Set(denyList.map(Self.denyListEntry)), maxPaymentsPerHour: velocityMaxPerHour,
            maxAmountPerDayMinor: EURAmount.minorUnits(of: velocityMaxAmountPerDay) ?? 500_000,
            unusualAmountFactor: Int64(unusualAmountFactor), newDeviceAge: TimeInterval(newDeviceHours) * 3_600)
        rules.notMeWindow = TimeInterval(notMeSignalDays) * 86_400
        return rules
    }

    /// IBANs compare compact and upper case (as transactions store them); device ids as written.
    static func denyListEntry(_ entry: String) -> String {
        let trimmed = entry.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("dev_") { return trimmed }
        return trimmed.replacingOccurrences(of: " ", with: "").uppercased()
    }

    /// - Throws: `ConfigurationError` for a threshold beyond the RTS or a malformed amount.
    func validate() throws {
        func amount(_ text: String, _ key: String, max: Int64?) throws {
            guard let minor = EURAmount.minorUnits(of: text), minor > 0 else {
                throw ConfigurationError("\(key) must be a positive EUR amount with at most two decimals, got \(text)")
            }
            if let max, minor > max {
                throw ConfigurationError("\(key) must be at most \(EURAmount.text(max)) EUR (RTS), got \(text)")
            }
        }
        try amount(lowValueMaxAmount, "lowValueMaxAmount", max: 3_000)
        try amount(lowValueMaxCumulative, "lowValueMaxCumulative", max: 10_000)
        try amount(velocityMaxAmountPerDay, "velocityMaxAmountPerDay", max: nil)
        guard (1...5).contains(lowValueMaxCount) else {
            throw ConfigurationError("lowValueMaxCount must be between 1 and 5 (RTS art. 16(c)), got \(lowValueMaxCount)")
        }
        guard (1...180).contains(accountInfoExemptionDays) else {
            throw ConfigurationError("accountInfoExemptionDays must be between 1 and 180 (RTS art. 10), got \(accountInfoExemptionDays)")
        }
        guard (0...365).contains(notMeSignalDays) else { throw ConfigurationError("notMeSignalDays must be 0 to 365") }
        guard velocityMaxPerHour >= 1, unusualAmountFactor >= 1, newDeviceHours >= 0 else {
            throw ConfigurationError("velocityMaxPerHour and unusualAmountFactor must be at least 1, newDeviceHours not negative")
        }
        for entry in denyList where Self.denyListEntry(entry).isEmpty {
            throw ConfigurationError("riskDenyList has an empty entry")
        }
    }

    /// A comma-separated list, empty entries dropped.
    static func list(_ value: String, key: String) throws -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
