/// The typed facts of a `rate.limited` event: what was refused and by which budgets (never
/// whose: a budget's subject is a keyed hash and stays out of the trail). `AuditTrail` takes
/// the counter labels and the entry's `action` and `budget` details from it.
package struct RateRefusal: Sendable, Equatable {
    /// What the budgets limit.
    package enum Action: String, Sendable, CaseIterable {
        /// Sending a one-time code.
        case send
        /// Opening a challenge.
        case challenge
        /// Creating a decoupled operation.
        case operation
    }

    /// What was refused.
    package var action: Action
    /// The spent budgets, in the order they were asked for, each once.
    package var scopes: [RateBudgetScope]

    package init(action: Action, scopes: [RateBudgetScope]) {
        self.action = action
        self.scopes = scopes
    }
}
