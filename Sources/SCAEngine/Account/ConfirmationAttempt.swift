/// How a code typed to confirm something waiting went.
package enum ConfirmationAttempt<Waiting: Sendable & Equatable>: Sendable, Equatable {
    /// The code was right: what waited is taken off and may be applied.
    case confirmed(Waiting)
    /// Wrong; it waits on, with this many tries left.
    case wrong(remaining: Int)
    /// Wrong for the last allowed time: what waited is dropped.
    case exhausted
    /// Nothing waits (never asked, confirmed, cancelled, or expired).
    case nothingPending
}
