/// Where the SDK keeps the session's tokens between calls (the Keychain on iOS).
public protocol TokenStore: Sendable {
    /// - Returns: the stored tokens, or nil when signed out.
    /// - Throws: the store's error when they cannot be read.
    func load() async throws -> StoredTokens?

    /// Replaces the stored tokens.
    /// - Parameter tokens: the new tokens.
    /// - Throws: the store's error when they cannot be written.
    func save(_ tokens: StoredTokens) async throws

    /// Forgets the tokens.
    /// - Throws: the store's error when they cannot be deleted.
    func clear() async throws
}
