import Foundation

/// One budget a request draws from: at most `limit` uses of `key` in any `window` seconds
/// (a sliding window, so a burst at the end of one period and another at the start of the
/// next cannot add up to twice the limit).
///
/// `key` names the counter and must say everything that makes it distinct (what is limited,
/// the window, and whose budget it is: a keyed hash, never an address in clear), so budgets
/// that differ only in their window are counted apart.
public struct RateBudget: Sendable, Hashable {
    /// The counter, e.g. `send.destination.600:<keyed hash>`.
    public var key: String
    /// What the budget limits (`destination`, `user`, `client`, `global`, …): low-cardinality,
    /// for the refusal's audit entry and metric.
    public var scope: String
    /// Uses allowed within `window`; at least 1.
    public var limit: Int
    /// Seconds; at least 1.
    public var window: TimeInterval

    public init(key: String, scope: String, limit: Int, window: TimeInterval) {
        self.key = key
        self.scope = scope
        self.limit = limit
        self.window = window
    }
}
