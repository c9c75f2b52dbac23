import Foundation

// A partner client's failed authentications, counted on a `LockoutState` of its own (kept by
// `updateUnknownAddressLockout(key:_:)` under `ClientAuthentication.key(for:)`): a client secret
// guessed at the token endpoint is slowed down per client, whatever address the guesses come from.
extension LockoutState {
    /// Failures in a row after which the client is refused for ``clientThrottleSeconds``.
    package static let clientFailureLimit = 10
    /// How long a throttled client is refused, secret or not.
    package static let clientThrottleSeconds: TimeInterval = 60

    /// Whether the client is throttled at `now`; the seconds left when it is.
    package func clientThrottle(now: Date) -> TimeInterval? {
        guard let lockedUntil, lockedUntil > now else { return nil }
        return lockedUntil.timeIntervalSince(now)
    }

    /// Counts a failed authentication. The ``clientFailureLimit``-th in a row throttles the
    /// client (and starts the count again).
    /// - Returns: true when this failure throttled it.
    package mutating func recordClientFailure(now: Date) -> Bool {
        failedAttempts += 1
        guard failedAttempts >= Self.clientFailureLimit else { return false }
        failedAttempts = 0
        temporaryBlocks += 1
        lockedUntil = now.addingTimeInterval(Self.clientThrottleSeconds)
        return true
    }

    /// A right secret ends the count of failures in a row.
    package mutating func recordClientSuccess() {
        failedAttempts = 0
    }
}

/// Where a client's authentication failures are counted.
package enum ClientAuthentication {
    package static func key(for clientID: String) -> String { "client-auth:\(clientID)" }
}
