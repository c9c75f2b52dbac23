import Foundation

/// Which limit of RTS art. 16 bounds low-value payments since the last SCA: the cumulative
/// amount (art. 16(b)) or the number of payments (art. 16(c)). The RTS lets the provider choose.
package enum LowValueLimit: String, Sendable, CaseIterable, Codable {
    case cumulative
    case count
}

/// The thresholds of the low-value exemption (RTS art. 16), EUR minor units (cents).
package struct LowValueRules: Sendable, Equatable {
    /// Largest single payment (RTS: 30 EUR).
    package var maxAmountMinor: Int64
    package var limit: LowValueLimit
    /// Largest cumulative amount since the last SCA, this payment included (RTS: 100 EUR).
    package var maxCumulativeMinor: Int64
    /// Most payments without SCA since the last SCA, this one included (RTS: 5).
    package var maxCount: Int

    package init(maxAmountMinor: Int64 = 3_000, limit: LowValueLimit, maxCumulativeMinor: Int64 = 10_000, maxCount: Int = 5) {
        self.maxAmountMinor = maxAmountMinor
        self.limit = limit
        self.maxCumulativeMinor = maxCumulativeMinor
        self.maxCount = maxCount
    }
}

/// Payments made without SCA since the user's last SCA for a payment, whatever exemption let
/// them through: art. 16 counts every previous remote payment since the last SCA, so a payment
/// exempted as recurring or to a trusted payee uses up the low-value allowance too.
package struct LowValueCounters: Codable, Sendable, Equatable {
    package var count: Int
    /// EUR minor units.
    package var sumMinor: Int64

    package init(count: Int = 0, sumMinor: Int64 = 0) {
        self.count = count
        self.sumMinor = sumMinor
    }

    /// Whether a payment of `amountMinor` may go as low value: at most the single-payment
    /// threshold, and the configured limit still held once it is counted (this payment
    /// included, the reading that never lets a sixth payment or a 100.01 EUR total through).
    package func admits(_ amountMinor: Int64, rules: LowValueRules) -> Bool {
        guard amountMinor > 0, amountMinor <= rules.maxAmountMinor else { return false }
        switch rules.limit {
        case .count: return count + 1 <= rules.maxCount
        case .cumulative: return sumMinor + amountMinor <= rules.maxCumulativeMinor
        }
    }

    /// Counts one payment made without SCA.
    package mutating func add(_ amountMinor: Int64) {
        count += 1
        sumMinor += amountMinor
    }

    /// An SCA for a payment starts both counters again.
    package mutating func reset() {
        self = LowValueCounters()
    }

    /// `count=3,sumEUR=45.00`, for the audit entry.
    package var summary: String { "count=\(count),sumEUR=\(EURAmount.text(sumMinor))" }
}
