import Foundation

/// The lockout rules themselves, as pure transitions of `LockoutState`. Every backend reads the
/// state under its own lock, applies one of these, and writes the state back only if it
/// changed, so the rules are written once whatever the database.
extension LockoutState {
    /// Applies `transition` to a copy of these counters: its outcome, and the counters to write
    /// back, nil when the transition left them as they were (nothing to write).
    package func applying<Outcome>(
        _ transition: (inout LockoutState) -> Outcome
    ) -> (outcome: Outcome, changed: LockoutState?) {
        var next = self
        let outcome = transition(&next)
        return (outcome, next == self ? nil : next)
    }

    /// Counts one attempt up front unless the user is blocked or the allowance is taken by
    /// attempts still being evaluated. A temporary block that has run out is lifted here; its
    /// number stays, so the next block is longer.
    package mutating func reserveAttempt(policy: LockoutPolicy, now: Date) -> AttemptReservation {
        if permanentlyLocked { return .locked(until: nil) }
        if let until = lockedUntil {
            if until > now { return .locked(until: until) }
            lockedUntil = nil
        }
        guard failedAttempts < policy.maxFailedAttempts else { return .saturated }
        failedAttempts += 1
        return .granted(remaining: policy.maxFailedAttempts - failedAttempts)
    }

    /// A reserved attempt turned out wrong: it stays counted, and reaching the limit starts the
    /// next block (temporary, doubling; permanent after `maxTemporaryBlocks`).
    package mutating func recordFailure(policy: LockoutPolicy, now: Date) -> FailureOutcome {
        if permanentlyLocked { return .permanentlyBlocked }
        if let until = lockedUntil, until > now {
            // Another attempt of the same burst started the block already.
            return .temporarilyBlocked(until: until, block: temporaryBlocks)
        }
        guard failedAttempts >= policy.maxFailedAttempts else {
            return .counted(remaining: policy.maxFailedAttempts - failedAttempts)
        }
        temporaryBlocks += 1
        failedAttempts = 0
        guard temporaryBlocks <= policy.maxTemporaryBlocks else {
            permanentlyLocked = true
            lockedUntil = nil
            return .permanentlyBlocked
        }
        let until = now.addingTimeInterval(policy.blockDuration(forBlock: temporaryBlocks))
        lockedUntil = until
        return .temporarilyBlocked(until: until, block: temporaryBlocks)
    }

    /// Gives one reserved attempt back (the attempt was refused before anything was judged),
    /// never going below zero. Blocks are left alone: a block started meanwhile by another
    /// attempt has reset the counter already.
    package mutating func releaseAttempt() {
        failedAttempts = max(0, failedAttempts - 1)
    }

    /// Failures left before the next block, as an answer tells them: none while blocked.
    package func remainingAttempts(policy: LockoutPolicy, now: Date) -> Int {
        isBlocked(at: now) ? 0 : max(0, policy.maxFailedAttempts - failedAttempts)
    }

    /// Whether the user can pass no SCA at `now`: blocked for good, or within a temporary
    /// block. (What an exemption withholds, and what refuses a partner's consent at once.)
    package func isBlocked(at now: Date) -> Bool {
        permanentlyLocked || (lockedUntil.map { $0 > now } ?? false)
    }
}
