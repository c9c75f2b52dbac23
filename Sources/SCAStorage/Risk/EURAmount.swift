import Foundation
import SCACore

/// EUR amounts as the risk engine counts them: whole minor units (cents), so that limits are
/// compared exactly. Other currencies convert with the configured rates, rounded up: a
/// conversion never lets a payment under a threshold it would be over to the cent.
package enum EURAmount {
    /// The EUR minor units of `transaction`, nil when its currency has no rate (the caller
    /// then treats the payment as unconverted: no exemption).
    /// - Parameter eurPerUnit: EUR value of one unit of each other currency.
    package static func minorUnits(of transaction: Transaction, eurPerUnit: [String: Decimal]) -> Int64? {
        guard let currency = Currency(code: transaction.currency),
            let minor = currency.minorUnits(of: transaction.amount)
        else { return nil }
        if currency.code == "EUR" { return minor }
        guard let rate = eurPerUnit[currency.code], rate > 0 else { return nil }
        var units = Decimal(minor)
        for _ in 0..<currency.minorUnits { units /= 10 }
        var cents = units * rate * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &cents, 0, .up)
        return Int64(exactly: NSDecimalNumber(decimal: rounded).int64Value)
    }

    /// A decimal text in EUR (`30.00`) as minor units; nil unless it has at most two decimals.
    package static func minorUnits(of text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 13,
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 2, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        while fraction.count < 2 { fraction += "0" }
        return Int64(parts[0]).flatMap { whole in Int64(fraction).map { whole * 100 + $0 } }
    }

    /// `45.00`.
    package static func text(_ minor: Int64) -> String {
        let sign = minor < 0 ? "-" : ""
        let value = minor.magnitude
        let cents = value % 100
        return "\(sign)\(value / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}
