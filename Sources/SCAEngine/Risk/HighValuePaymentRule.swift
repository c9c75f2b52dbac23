import Foundation
import SCACore

/// A payment worth the threshold or more (in EUR) needs all three categories.
struct HighValuePaymentRule: RiskRule {
    var thresholdInEUR: Decimal
    /// EUR value of one unit of each other currency.
    var eurPerUnit: [String: Decimal]

    func requiredCategories(for context: RiskContext) -> Int? {
        guard context.operation == .payment, let transaction = context.transaction else { return nil }
        guard let value = valueInEUR(transaction) else { return 3 }  // no rate: fail safe
        return value >= thresholdInEUR ? 3 : nil
    }

    func valueInEUR(_ transaction: Transaction) -> Decimal? {
        guard let currency = Currency(code: transaction.currency),
            let minor = currency.minorUnits(of: transaction.amount)
        else { return nil }
        var amount = Decimal(minor)
        for _ in 0..<currency.minorUnits { amount /= 10 }
        if currency.code == "EUR" { return amount }
        guard let rate = eurPerUnit[currency.code] else { return nil }
        return amount * rate
    }
}
