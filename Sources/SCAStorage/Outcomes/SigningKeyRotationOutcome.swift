/// What ``SCAStore/rotateSigningKey(to:if:)`` did.
public enum SigningKeyRotationOutcome: Sendable, Equatable {
    /// The candidate was stored.
    case rotated(SigningKeyRecord)
    /// The rule refused it after `newest`, which stays the newest key.
    case refused(newest: SigningKeyRecord)
}
