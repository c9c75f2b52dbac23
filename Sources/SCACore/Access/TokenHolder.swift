/// Who a token was issued to, as read from its claims (and confirmed by its session).
package enum TokenHolder: Sendable, Equatable {
    /// The bank's own surfaces: the SDK and its app, `sca`, the account page, the console.
    case firstParty
    /// One partner client, within the scopes it was granted (none for a consent's or an
    /// operation's token, which is good for its one operation only).
    case partner(clientID: String, scopes: [String])

    /// - Parameters:
    ///   - clientID: the token's `client_id` claim; nil for a first-party token.
    ///   - scope: its `scope` claim (space-separated).
    package init(clientID: String?, scope: String?) {
        if let clientID {
            self = .partner(clientID: clientID, scopes: (scope ?? "").split(separator: " ").map(String.init))
        } else {
            self = .firstParty
        }
    }

    /// The scopes granted: none for a first-party token, which is not scoped.
    package var scopes: [String] {
        if case .partner(_, let scopes) = self { return scopes }
        return []
    }
}
