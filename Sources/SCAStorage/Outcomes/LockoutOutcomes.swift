import Foundation

/// How many failures a user may have and how blocks grow (RTS art. 4(3)(b)).
public struct LockoutPolicy: Sendable, Equatable {
    /// Consecutive failures that trigger a block. RTS maximum: 5.
    public var maxFailedAttempts: Int
    /// Length of the first temporary block; each further one doubles it.
    public var firstBlockDuration: TimeInterval
    /// Temporary blocks allowed before the next one is permanent.
    public var maxTemporaryBlocks: Int

    public init(maxFailedAttempts: Int = 5, firstBlockDuration: TimeInterval = 900, maxTemporaryBlocks: Int = 3) {
        self.maxFailedAttempts = maxFailedAttempts
        self.firstBlockDuration = firstBlockDuration
        self.maxTemporaryBlocks = maxTemporaryBlocks
    }

    /// Length of the `n`th temporary block (1-based): 15, 30, 60 minutes with the defaults.
    public func blockDuration(forBlock n: Int) -> TimeInterval {
        firstBlockDuration * Double(1 << max(0, n - 1))
    }
}

/// The answer to "may this user make one more guess?". A granted attempt is counted as a
/// failure up front and forgiven on success, so parallel guesses can never exceed the limit.
public enum AttemptReservation: Sendable, Equatable {
    /// Go ahead; `remaining` attempts are left should this one fail.
    case granted(remaining: Int)
    /// Blocked until the date, or permanently when nil.
    case locked(until: Date?)
    /// Attempts still being evaluated fill the allowance; try again shortly.
    case saturated
}

/// What a failed attempt did to the user's lock state.
public enum FailureOutcome: Sendable, Equatable {
    /// Counted; `remaining` failures are left before a block.
    case counted(remaining: Int)
    /// A temporary block started (or was already running) until the date; `block` is its
    /// 1-based number since the last success.
    case temporarilyBlocked(until: Date, block: Int)
    /// The user is now (or was already) permanently blocked.
    case permanentlyBlocked
}
