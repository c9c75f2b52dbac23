/// The kinds of route a token can be presented to, for ``TokenAccess/decide(_:at:)``.
package enum RouteClass: Sendable, Equatable {
    /// The user's own API: `/v1/me*`, `/v1/devices*`, `/v1/activations`, `/v1/passkeys*`,
    /// `/v1/tokens/refresh`, a session on `POST /v1/challenges` (exemptions). What it changes
    /// is the account itself, so only the bank's own surfaces may use it.
    case firstParty
    /// The admin API with an operator's own token.
    case operatorAccess
    /// A partner route that needs a scope: `/oauth2/userinfo` (`openid`), the consent API
    /// (`consents`).
    case partner(scope: String)
    /// A route that performs exactly one operation of the token's kind, bound to its details
    /// (adding the one trusted beneficiary a `beneficiary_add` token names): the user's own
    /// app, or the partner the user approved that very operation for.
    case boundOperation
}
