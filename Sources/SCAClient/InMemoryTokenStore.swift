/// Tokens kept for the life of the process only: the default, and what a test or a one-shot
/// tool wants.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: StoredTokens?

    /// An empty store.
    public init() {}

    /// - Returns: the tokens saved last, or nil.
    /// - Throws: never; the protocol allows stores that can fail.
    public func load() async throws -> StoredTokens? { tokens }

    /// - Parameter tokens: replaces what was stored.
    /// - Throws: never.
    public func save(_ tokens: StoredTokens) async throws { self.tokens = tokens }

    /// Forgets the tokens.
    /// - Throws: never.
    public func clear() async throws { tokens = nil }
}
