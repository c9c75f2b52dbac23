import Foundation
import Logging
import SCACore
import SCAStorage

/// Consecutive failed attempts per user, across challenges (RTS art. 4(3)(b)): at the limit a
/// temporary block that doubles each time, then a permanent one, announced to the user first.
struct LockoutService: EngineService, Sendable {
    let context: EngineContext
    let policy: LockoutPolicy
    /// Alerts are delivered in the background: no attempt's answer waits for them.
    let alerts: SecurityAlerts

    /// Counts one attempt before it is evaluated.
    /// - Throws: `Problem.userLocked` or `Problem.attemptsInProgress`.
    func reserveAttempt(for subject: LockoutSubject) async throws {
        let now = runtime.now()
        let reservation: AttemptReservation
        switch subject {
        case .user(let user):
            reservation = try await store.reserveAttempt(userID: user.id, policy: policy, now: now)
        case .unknownAddress(let key):
            let policy = self.policy
            reservation = try await store.updateUnknownAddressLockout(key: key) { $0.reserveAttempt(policy: policy, now: now) }
        }
        switch reservation {
        case .granted: return
        case .locked(let until): throw Problem.userLocked(until: until, now: now)
        case .saturated: throw Problem.attemptsInProgress
        }
    }

    /// Gives a reserved attempt back: it was refused before anything was judged, or it was
    /// not a guess (a right code presented again).
    func releaseAttempt(for subject: LockoutSubject) async throws {
        switch subject {
        case .user(let user):
            try await store.releaseAttempt(userID: user.id)
        case .unknownAddress(let key):
            try await store.updateUnknownAddressLockout(key: key) { $0.releaseAttempt() }
        }
    }

    /// The whole authentication succeeded: failures and temporary blocks start again from zero.
    func recordSuccess(for user: UserRecord) async throws {
        try await store.recordSuccess(userID: user.id)
    }

    /// Keeps a reserved attempt counted as failed; blocks (and alerts a user) when that
    /// reaches the limit. An unknown address blocks the same way, with nobody to alert.
    func recordFailure(for subject: LockoutSubject) async throws -> FailureOutcome {
        let now = runtime.now()
        let outcome: FailureOutcome
        switch subject {
        case .user(let user):
            outcome = try await store.recordFailure(userID: user.id, policy: policy, now: now)
        case .unknownAddress(let key):
            let policy = self.policy
            outcome = try await store.updateUnknownAddressLockout(key: key) { $0.recordFailure(policy: policy, now: now) }
        }
        await announce(outcome, for: subject, now: now)
        return outcome
    }

    /// The lockout steps of one proof, for the subject's counters inside the proof's single
    /// transaction (``SCAStore/commitProof(_:)``).
    /// - Parameter reserve: count the attempt first (it was not reserved when claimed).
    func change(for subject: LockoutSubject, reserve: Bool, settlement: LockoutPlan.Settlement) -> LockoutChange {
        let key: LockoutChange.Subject = switch subject {
        case .user(let user): .user(id: user.id)
        case .unknownAddress(let key): .unknownAddress(key: key)
        }
        // The user's counters as read with the proof's context: a backend may write the plan's
        // result by compare-and-set on them instead of reading them again.
        let observed: LockoutState? = if case .user(let user) = subject { user.lockout } else { nil }
        return LockoutChange(
            subject: key, plan: LockoutPlan(reserve: reserve, settlement: settlement, policy: policy, now: runtime.now()),
            observed: observed)
    }

    /// The subject as a granted reservation leaves its counters, so that the proof's commit
    /// sends them as its hint (`LockoutChange.observed`) rather than those read before the claim.
    /// Only a hint: the store decides on the stored counters.
    func reserved(_ subject: LockoutSubject) -> LockoutSubject {
        guard case .user(var user) = subject else { return subject }
        _ = user.lockout.reserveAttempt(policy: policy, now: runtime.now())
        return .user(user)
    }

    /// The answer to a reservation the store refused.
    func problem(for refused: AttemptReservation) -> Problem {
        switch refused {
        case .granted: Problem.contention  // never refused
        case .locked(let until): Problem.userLocked(until: until, now: runtime.now())
        case .saturated: Problem.attemptsInProgress
        }
    }

    /// Announces what a failure did, once it is committed: the call that started a block logs
    /// it, records it in the trail and alerts the user.
    func announce(_ outcome: FailureOutcome, for subject: LockoutSubject, now: Date) async {
        let user: UserRecord? = switch subject {
        case .user(let user): user
        case .unknownAddress: nil
        }
        switch outcome {
        case .counted:
            break
        case .temporarilyBlocked(let until, let block):
            // Only the call that started the block alerts; others see the same block running.
            let started = until == now.addingTimeInterval(policy.blockDuration(forBlock: block))
            if started {
                logger.notice("user temporarily blocked", metadata: ["user": "\(user?.id ?? "unknown")", "block": "\(block)"])
                await audit.record(
                    .userLocked, outcome: "temporary", userID: user?.id,
                    details: ["block": "\(block)", "until": ISO8601DateFormatter().string(from: until)]
                        .merging(user == nil ? ["user": "unknown"] : [:]) { first, _ in first })
                if let user, block >= policy.maxTemporaryBlocks {
                    await alert(user, messageText(for: user).blockedUntil(until))
                }
            }
        case .permanentlyBlocked:
            logger.notice("user permanently blocked", metadata: ["user": "\(user?.id ?? "unknown")"])
            // A blocked account keeps no session: its tokens stop working everywhere, and each
            // partner holding one is told (back-channel logout).
            var details = user == nil ? ["user": "unknown"] : [:]
            if let user {
                do {
                    details["sessionsEnded"] = String(try await store.endSessions(userID: user.id, now: now))
                } catch {
                    logger.error("sessions of a blocked user not ended", metadata: ["user": "\(user.id)", "error": "\(type(of: error))"])
                }
            }
            await audit.record(.userLocked, outcome: "permanent", userID: user?.id, details: details)
            if let user {
                await alert(user, messageText(for: user).blockedPermanently())
            }
        }
    }

    /// Failures left before the next block, as an answer tells them (none while blocked).
    func remainingAttempts(for subject: LockoutSubject) async throws -> Int {
        let now = runtime.now()
        let policy = self.policy
        switch subject {
        case .user(let user):
            let lockout = try await store.user(id: user.id)?.lockout ?? LockoutState()
            return lockout.remainingAttempts(policy: policy, now: now)
        case .unknownAddress(let key):
            return try await store.updateUnknownAddressLockout(key: key) { $0.remainingAttempts(policy: policy, now: now) }
        }
    }

    /// The block's alert, on every channel the user has (``SecurityAlerts``).
    private func alert(_ user: UserRecord, _ text: String) async {
        await alerts.send(text, to: user, purpose: .lockoutAlert)
    }
}
