import Foundation
import SCACore
import SCAStorage

/// A new e-mail address or phone number the user asked for that does not count yet: a code
/// went to the new address, and the change is made only when that code comes back. Whoever
/// holds a session cannot move the account's alerts and codes to an address they own without
/// proving they own it, and a typo does not lock the user out of their own channel.
///
/// Kept per user in the store's keyed states (one JSON row, changed in one transaction), one
/// pending change per channel: asking again replaces it and its code.
package struct ContactChange: RiskStateValue {
    package static let keyPrefix = "contact-change:"

    /// One change waiting for its code.
    package struct Pending: Codable, AwaitingCode {
        package var channel: ContactChannel
        /// The new address, normalised as it will be stored.
        package var address: String
        /// The keyed hash of the code sent to it, bound to the user, the channel and the address.
        package var codeHash: [UInt8]
        package var requestedAt: Date
        package var expiresAt: Date
        /// Wrong codes so far; at ``ConfirmationAttempt/maximumFailures`` the change is dropped.
        package var failures: Int
    }

    package var pending: [Pending] = []

    package init() {}

    /// The change waiting on `channel` at `now`, if any (an expired one is none).
    package func waiting(on channel: ContactChannel, at now: Date) -> Pending? {
        pending.first { $0.channel == channel && now < $0.expiresAt }
    }

    /// Records a new request on its channel, replacing any earlier one there (and its code).
    package mutating func request(_ change: Pending) {
        pending.removeAll { $0.channel == change.channel }
        pending.append(change)
    }

    /// Takes the change waiting on `channel` back, unconfirmed.
    /// - Returns: whether one was waiting.
    package mutating func cancel(_ channel: ContactChannel, at now: Date) -> Bool {
        let waited = waiting(on: channel, at: now) != nil
        pending.removeAll { $0.channel == channel }
        return waited
    }

    /// Checks a typed code against the change waiting on `channel`
    /// (``ConfirmationAttempt/judge(_:at:matches:)``); expired changes of any channel go too.
    /// - Parameter matches: whether the typed code is the one of the pending change.
    package mutating func attempt(_ channel: ContactChannel, at now: Date, matches: (Pending) -> Bool) -> ConfirmationAttempt<Pending> {
        pending.removeAll { now >= $0.expiresAt }
        var waiting = pending.first { $0.channel == channel }
        let attempt = ConfirmationAttempt.judge(&waiting, at: now, matches: matches)
        pending.removeAll { $0.channel == channel }
        if let waiting { pending.append(waiting) }
        return attempt
    }
}
