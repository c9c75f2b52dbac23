/// Why ``PasswordHasher`` could not hash a secret.
package enum PasswordHashingError: Error, Sendable, Equatable {
    /// The hasher's parameters are beyond the limits it accepts when verifying, so the hash
    /// could never be verified.
    case unsupportedParameters
}
