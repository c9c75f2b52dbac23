import Foundation
import SCACore
import SCAStorage

/// What the server knows when it decides how much proof an operation needs.
struct RiskContext: Sendable {
    var operation: OperationKind
    var transaction: Transaction?
    var user: UserRecord?
    var device: DeviceRecord?
}

/// One reason to ask for more (or, later, less) proof. Rules are independent: the policy takes
/// the strongest demand, so adding a rule can never weaken another.
protocol RiskRule: Sendable {
    /// The categories this rule requires for `context`, or nil when it has no opinion.
    func requiredCategories(for context: RiskContext) -> Int?
}

/// Decides the categories a challenge needs: the operation's configured base, raised by any
/// rule. The place where exemptions (PSD2 art. 10–18) will lower it, later, by explicit rules.
struct RiskPolicy: Sendable {
    var rules: [any RiskRule]

    func requiredCategories(base: Int, for context: RiskContext) -> Int {
        rules.compactMap { $0.requiredCategories(for: context) }.reduce(base, max)
    }

    static func standard(_ configuration: ServerConfiguration) -> RiskPolicy {
        RiskPolicy(rules: [
            HighValuePaymentRule(
                thresholdInEUR: Decimal(plainText: configuration.highValuePaymentThreshold) ?? 1_000,
                eurPerUnit: configuration.exchangeRates.compactMapValues { Decimal(plainText: $0) })
        ])
    }
}
