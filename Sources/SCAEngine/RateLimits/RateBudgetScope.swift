/// What a budget across challenges counts uses against (the defaults and their reasons are on
/// `RateLimits`). The case is the budget's scope in its store key, the `budget` label of
/// `sca_rate_limited_total` and the `budget` detail of a `rate.limited` audit entry: a closed
/// set, so the metric's series stay few.
package enum RateBudgetScope: String, Sendable, CaseIterable {
    /// One phone number or e-mail address (as a keyed hash).
    case destination
    /// One user, whatever the channel.
    case user
    /// One client address.
    case client
    /// Everyone together.
    case global
    /// One backend creating operations: a partner client or an admin key.
    case caller
}
