/// What `SCAStore.consumeRateBudgets` decided.
public enum RateDecision: Sendable, Equatable {
    /// Every budget had room; one use was counted in each.
    case granted
    /// At least one budget was spent; nothing was counted.
    /// - `scopes`: the scopes of the spent budgets, in the order they were asked for.
    /// - `retryAfter`: whole seconds (at least 1) until every one of them has room again,
    ///   so a client that waits that long is not refused by these budgets again.
    case refused(scopes: [String], retryAfter: Int)
}
