import Foundation

/// A proof's lockout steps as one pure transition, so a backend applies them inside the
/// proof's single transaction exactly as the separate calls would, one after the other.
extension LockoutState {
    package mutating func apply(_ plan: LockoutPlan) -> LockoutStep {
        if plan.reserve {
            let reservation = reserveAttempt(policy: plan.policy, now: plan.now)
            guard case .granted = reservation else { return .refused(reservation) }
        }
        var failure: FailureOutcome?
        switch plan.settlement {
        case .keep: break
        case .release: releaseAttempt()
        case .failure: failure = recordFailure(policy: plan.policy, now: plan.now)
        case .success: recordSuccess()
        }
        return .applied(failure: failure, remaining: remainingAttempts(policy: plan.policy, now: plan.now))
    }

    /// The whole authentication succeeded: failures and temporary blocks start again from
    /// zero. A permanent lock stays: a permanently locked subject is never granted an attempt,
    /// so a success can only come from an attempt reserved before the lock.
    package mutating func recordSuccess() {
        failedAttempts = 0
        temporaryBlocks = 0
        lockedUntil = nil
    }
}
