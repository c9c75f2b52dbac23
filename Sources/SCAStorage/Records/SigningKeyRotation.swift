import Foundation

/// Whether a new signing key may follow the newest one: a rule on the newest key's activation,
/// applied by the store in the transaction that stores the new key, so that two instances due
/// at once, or a command and an instance, store one key between them.
public struct SigningKeyRotation: Sendable, Equatable {
    /// The newest key must have activated at or before this instant: a rotation by command
    /// waits for the key before to sign (no key is published and never used), a periodic one for
    /// its period to run out.
    public var newestActivatedBy: Date

    public init(newestActivatedBy: Date) {
        self.newestActivatedBy = newestActivatedBy
    }

    /// Whether `candidate` may be stored after `newest`. It must also activate after it, so that
    /// every instance agrees which key is newest.
    public func allows(_ candidate: SigningKeyRecord, after newest: SigningKeyRecord) -> Bool {
        newest.activatesAt <= newestActivatedBy && candidate.activatesAt > newest.activatesAt
    }
}
