/// Why ``PasswordHasher`` could not hash a secret.
public enum PasswordHashingError: Error, Sendable, Equatable {
    /// The hasher's parameters are beyond the limits it accepts when verifying, so the hash
    /// could never be verified.
    case unsupportedParameters
}
