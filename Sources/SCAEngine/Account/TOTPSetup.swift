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
    package struct Pending: Codable, AwaitingCode {
        /// Sealed as the user's own seed is, so confirming moves it as it is.
        package var sealedSeed: [UInt8]
        package var expiresAt: Date
        /// Wrong codes so far; at ``ConfirmationAttempt/maximumFailures`` the seed is dropped.
        package var failures: Int
    }

    package var pending: Pending?

    package init() {}

    /// Checks a typed code against the waiting seed (``ConfirmationAttempt/judge(_:at:matches:)``).
    /// - Parameter matches: whether the code is one of the seed's for now.
    package mutating func attempt(at now: Date, matches: (Pending) -> Bool) -> ConfirmationAttempt<Pending> {
        ConfirmationAttempt.judge(&pending, at: now, matches: matches)
    }
}
