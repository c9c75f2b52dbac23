import Foundation
import SCAStorage

/// When each token-signing key signs, when it is published and when the next one is due: pure
/// rules over the stored keys' activation times, so every instance that read the same keys
/// decides the same at the same instant.
///
/// A rotation stores a key that activates ``prepublication`` later. Meanwhile the JWKS
/// publishes it beside the key that signs, so a relying party's cache, and every instance
/// (which read the keys every ``reloadInterval``), hold it before its first token. After it
/// activates, the key before stays published for ``retention``: the longest life of anything
/// it signed, so no token it signed outlives its key in the JWKS.
package struct SigningKeySchedule: Sendable, Equatable {
    /// Seconds a rotated key is published before it signs.
    package var prepublication: TimeInterval
    /// Seconds a key stays published after its successor activates.
    package var retention: TimeInterval
    /// Seconds between two rotations made by the server itself; nil: by command only.
    package var rotationPeriod: TimeInterval?

    /// How often each instance reads the keys again (and once more at a token with a key id it
    /// does not know): a key rotated on another instance, or by `sca-server keys rotate`,
    /// is known here long before it activates.
    package static let reloadInterval: Duration = .seconds(30)
    /// What the JWKS tells caches (`Cache-Control: max-age`).
    package static let jwksMaxAge = 900
    /// The pre-publication window: four times the JWKS cache lifetime, so a relying party that
    /// caches for up to 15 minutes and misses a refresh or two still learns the key first, and
    /// 120 reloads of every instance.
    package static let defaultPrepublication: TimeInterval = 3_600
    /// The longest life of a JWT whose lifetime is fixed in code rather than configured: the
    /// sign-up's enrolment token (600 s); id_tokens (300 s), logout tokens (120 s) and JWT
    /// authorization responses (60 s) live less. A test holds it to them.
    package static let longestFixedLifetime: TimeInterval = 600
    /// Added to the retention for clocks of instances and relying parties that differ.
    package static let clockLeeway: TimeInterval = 60

    package init(prepublication: TimeInterval, retention: TimeInterval, rotationPeriod: TimeInterval?) {
        self.prepublication = prepublication
        self.retention = retention
        self.rotationPeriod = rotationPeriod
    }

    /// The server's schedule: retention from `accessTokenLifetime` and the fixed lifetimes,
    /// period from `tokenKeys.rotationPeriod`.
    package init(configuration: ServerConfiguration) {
        self.init(
            prepublication: Self.defaultPrepublication,
            retention: max(TimeInterval(configuration.accessTokenLifetime), Self.longestFixedLifetime) + Self.clockLeeway,
            rotationPeriod: configuration.tokenKeysRotationPeriod)
    }

    /// The key that signs at `now`: the newest whose activation has passed. Before every key's
    /// activation (a clock set back), the oldest, which has signed before.
    /// - Parameter keys: newest activation first, as the store lists them.
    package func signing<Key>(_ keys: [Key], at now: Date, activation: (Key) -> Date) -> Key? {
        keys.first { activation($0) <= now } ?? keys.last
    }

    /// The keys the JWKS publishes at `now`: those not yet active, the one that signs, and those
    /// whose successor activated less than ``retention`` ago. A key is never dropped from the
    /// store, only from this list.
    /// - Parameter keys: newest activation first.
    package func published<Key>(_ keys: [Key], at now: Date, activation: (Key) -> Date) -> [Key] {
        keys.indices.filter { index in
            index == keys.startIndex || activation(keys[index - 1]).addingTimeInterval(retention) > now
        }.map { keys[$0] }
    }

    /// When a key rotated at `now` starts to sign.
    package func activation(ofKeyRotatedAt now: Date) -> Date {
        now.addingTimeInterval(prepublication)
    }

    /// A rotation by command at `now`: refused while a key waits to activate, so no key is
    /// published that never signs.
    package func commandedRotation(at now: Date) -> SigningKeyRotation {
        SigningKeyRotation(newestActivatedBy: now)
    }

    /// The server's own rotation at `now`, when a period is set: due once the new key would
    /// activate a period after the newest one.
    package func periodicRotation(at now: Date) -> SigningKeyRotation? {
        rotationPeriod.map { SigningKeyRotation(newestActivatedBy: now.addingTimeInterval(prepublication - $0)) }
    }
}
