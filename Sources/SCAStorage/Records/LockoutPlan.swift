import Foundation

/// The lockout steps of one proof, applied together to the subject's counters (pure:
/// ``LockoutState/apply(_:)``): optionally reserve the attempt first (a proof that was not
/// reserved when it was claimed), then settle it.
public struct LockoutPlan: Sendable, Equatable {
    /// How a judged attempt is settled.
    public enum Settlement: Sendable, Equatable {
        /// Leave the counters as they are (the attempt stays counted, or nothing was reserved).
        case keep
        /// Give the reserved attempt back (right, but the authentication is not finished).
        case release
        /// Keep the attempt counted as failed, blocking at the limit.
        case failure
        /// The whole authentication succeeded: counters and temporary blocks start from zero.
        case success
    }

    /// Reserve the attempt first (refused, with nothing applied, when blocked or saturated).
    public var reserve: Bool
    public var settlement: Settlement
    public var policy: LockoutPolicy
    public var now: Date

    public init(reserve: Bool, settlement: Settlement, policy: LockoutPolicy, now: Date) {
        self.reserve = reserve
        self.settlement = settlement
        self.policy = policy
        self.now = now
    }
}

/// What a ``LockoutPlan`` did.
public enum LockoutStep: Sendable, Equatable {
    /// The reservation was refused: nothing of the proof is applied.
    case refused(AttemptReservation)
    /// Applied. `failure`: what a `.failure` settlement did; `remaining`: failures left before
    /// the next block afterwards (none while blocked).
    case applied(failure: FailureOutcome?, remaining: Int)
}
