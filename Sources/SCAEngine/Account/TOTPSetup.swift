import Foundation
import SCACore
import SCAStorage

/// A new authenticator-app seed that does not count yet: the user has been shown it once, and
/// it replaces the account's TOTP only when a code of the app comes back. A seed nobody scanned
/// (a closed tab, a mistyped secret) never locks the user out of the app they had.
///
/// Kept per user in the store's keyed states (one JSON row, changed in one transaction);
/// starting again replaces the seed.
package struct TOTPSetup: RiskStateValue {
    package static let keyPrefix = "totp-setup:"

    /// The seed waiting for its first code.
    package struct Pending: Codable, Sendable, Equatable {
        /// Sealed as the user's own seed is, so confirming moves it as it is.
        package var sealedSeed: [UInt8]
        package var expiresAt: Date
        /// Wrong codes so far; at ``ContactChange/maximumFailures`` the seed is dropped.
        package var failures: Int
    }

    package var pending: Pending?

    package init() {}

    /// Checks a typed code against the waiting seed; an expired seed is dropped first.
    /// - Parameter matches: whether the code is one of the seed's for now.
    package mutating func attempt(
        at now: Date, matches: (Pending) -> Bool, maximumFailures: Int = ContactChange.maximumFailures
    ) -> ConfirmationAttempt<Pending> {
        if let waiting = pending, now >= waiting.expiresAt { pending = nil }
        guard let waiting = pending else { return .nothingPending }
        if matches(waiting) {
            pending = nil
            return .confirmed(waiting)
        }
        pending?.failures += 1
        guard waiting.failures + 1 < maximumFailures else {
            pending = nil
            return .exhausted
        }
        return .wrong(remaining: maximumFailures - waiting.failures - 1)
    }
}
