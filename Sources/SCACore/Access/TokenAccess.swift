/// The one decision of who may use which route: a token's holder against the class of the route
/// it is presented to. Every route that takes a token asks it, through the token service, so
/// the rule is written once and read in one place.
///
/// - A first-party token opens first-party routes, operator access (the permissions are
///   checked after this) and bound operations; never a partner route, which answers for one
///   partner's grant.
/// - A partner's token opens the partner routes its scopes name and the bound operations its
///   user approved for it; never a first-party route and never operator access: what a user
///   approved for a partner is not widened into a device, a passkey, a credential or an
///   administrator's power.
package enum TokenAccess {
    package enum Decision: Sendable, Equatable {
        case allowed
        case refused(Refusal)
    }

    package enum Refusal: Sendable, Equatable {
        /// A partner's token at a route of the bank's own surfaces.
        case delegatedToken
        /// A first-party token at a route that answers for one partner's grant.
        case notDelegated
        /// A partner's token without the scope the route needs.
        case scopeMissing(String)
    }

    package static func decide(_ holder: TokenHolder, at route: RouteClass) -> Decision {
        switch (holder, route) {
        case (.firstParty, .firstParty), (.firstParty, .operatorAccess), (.firstParty, .boundOperation):
            return .allowed
        case (.firstParty, .partner):
            return .refused(.notDelegated)
        case (.partner, .firstParty), (.partner, .operatorAccess):
            return .refused(.delegatedToken)
        case (.partner(_, let scopes), .partner(let scope)):
            return scopes.contains(scope) ? .allowed : .refused(.scopeMissing(scope))
        case (.partner, .boundOperation):
            return .allowed
        }
    }
}
