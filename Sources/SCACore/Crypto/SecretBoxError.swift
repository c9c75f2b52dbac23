/// Why ``SecretBox`` could not open sealed bytes.
package enum SecretBoxError: Error, Sendable, Equatable {
    /// The bytes were altered or truncated, the context differs, or another key sealed them.
    /// One case for all, as the cipher cannot tell them apart either.
    case cannotOpen
}
