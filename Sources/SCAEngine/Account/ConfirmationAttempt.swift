import Foundation

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

/// Something that waits for a code: until when, and how many wrong codes it has had.
package protocol AwaitingCode: Sendable, Equatable {
    var expiresAt: Date { get }
    var failures: Int { get set }
}

extension ConfirmationAttempt where Waiting: AwaitingCode {
    /// Wrong codes anything waiting survives: the same limit as a sign-in's failed attempts.
    package static var maximumFailures: Int { 5 }

    /// Judges a typed code against `waiting`, which is taken off when it expired (first, so an
    /// old code never counts), when the code is right, and at the last allowed wrong code.
    /// - Parameter matches: whether the typed code is the one of what waits.
    package static func judge(_ waiting: inout Waiting?, at now: Date, matches: (Waiting) -> Bool) -> Self {
        if let expired = waiting, now >= expired.expiresAt { waiting = nil }
        guard var current = waiting else { return .nothingPending }
        if matches(current) {
            waiting = nil
            return .confirmed(current)
        }
        current.failures += 1
        guard current.failures < maximumFailures else {
            waiting = nil
            return .exhausted
        }
        waiting = current
        return .wrong(remaining: maximumFailures - current.failures)
    }
}
