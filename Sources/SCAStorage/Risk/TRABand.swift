import Foundation
import SCACore

/// One band of the TRA exemption (RTS art. 18 and its annex): payments up to `maxAmountMinor`
/// EUR may go without SCA while the provider's fraud rate for the type is at most the
/// reference rate, given in parts per million of the value.
package struct TRABand: Sendable, Equatable {
    package var type: PaymentType
    package var maxAmountMinor: Int64
    /// 0.015 % is 150 ppm.
    package var referencePPM: Int64

    package init(type: PaymentType, maxAmountMinor: Int64, referencePPM: Int64) {
        self.type = type
        self.maxAmountMinor = maxAmountMinor
        self.referencePPM = referencePPM
    }

    /// `credit_transfer:500`: how a stopped band is named in the state and the audit trail.
    package var id: String { "\(type.rawValue):\(maxAmountMinor / 100)" }

    /// The annex's table: credit transfers 100/250/500 EUR at 0.015/0.01/0.005 %; remote card
    /// payments at 0.13/0.06/0.01 %. Smallest amount first.
    package static func bands(for type: PaymentType) -> [TRABand] {
        switch type {
        case .creditTransfer:
            [.init(type: type, maxAmountMinor: 10_000, referencePPM: 150), .init(type: type, maxAmountMinor: 25_000, referencePPM: 100),
             .init(type: type, maxAmountMinor: 50_000, referencePPM: 50)]
        case .card:
            [.init(type: type, maxAmountMinor: 10_000, referencePPM: 1_300), .init(type: type, maxAmountMinor: 25_000, referencePPM: 600),
             .init(type: type, maxAmountMinor: 50_000, referencePPM: 100)]
        }
    }

    /// Whether `fraudMinor` over `volumeMinor` is above the reference rate. No volume: no
    /// rate, so not above (there is nothing to compare; the first quarter starts clean).
    package func isExceeded(fraudMinor: Int64, volumeMinor: Int64) -> Bool {
        guard volumeMinor > 0 else { return fraudMinor > 0 }
        // fraud / volume > ppm / 1_000_000, in exact decimal arithmetic.
        return Decimal(fraudMinor) * 1_000_000 > Decimal(referencePPM) * Decimal(volumeMinor)
    }

    /// The largest amount TRA may exempt now: the biggest band whose reference the current
    /// rate meets and which is not stopped (art. 20); nil when none.
    package static func maxExemptMinor(
        type: PaymentType, fraudMinor: Int64, volumeMinor: Int64, suspended: Set<String>
    ) -> Int64? {
        bands(for: type)
            .filter { !suspended.contains($0.id) && !$0.isExceeded(fraudMinor: fraudMinor, volumeMinor: volumeMinor) }
            .map(\.maxAmountMinor).max()
    }

    /// Art. 20 and 21 over completed quarters, oldest first (`true`: the rate was above the
    /// reference that quarter): stopped after two consecutive quarters above, resumed by the
    /// first quarter at or below it.
    package static func isSuspended(quartersAbove: [Bool]) -> Bool {
        var consecutive = 0
        var suspended = false
        for above in quartersAbove {
            if above {
                consecutive += 1
                if consecutive >= 2 { suspended = true }
            } else {
                consecutive = 0
                suspended = false
            }
        }
        return suspended
    }

    /// `0.015000`: a rate of `fraud / volume` in percent with six decimals.
    ///
    /// Written from the rounded value's own text, which no locale changes: a `NumberFormatter`
    /// would open an ICU formatter, and load a locale's data, for every payment TRA looks at.
    package static func percentText(fraudMinor: Int64, volumeMinor: Int64) -> String {
        guard volumeMinor > 0 else { return "0.000000" }
        var value = Decimal(fraudMinor) * 100 / Decimal(volumeMinor)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 6, .plain)
        let text = rounded.description
        let point = text.firstIndex(of: ".")
        let whole = point.map { text[..<$0] } ?? text[...]
        let fraction = point.map { text[text.index(after: $0)...] } ?? ""
        return whole + "." + fraction + String(repeating: "0", count: max(0, 6 - fraction.count))
    }

    /// The reference rate in percent: 150 ppm is `0.015`.
    package var referencePercentText: String {
        var value = Decimal(referencePPM) / 10_000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 4, .plain)
        return "\(rounded)"
    }
}
