import SCACore
import Testing

/// The one decision of who may use which route (token holder × route class).
@Suite("Token access: a token's holder against the class of the route")
struct TokenAccessTests {
    static let partner = TokenHolder.partner(clientID: "cli_shop", scopes: ["openid", "consents"])
    static let consentToken = TokenHolder.partner(clientID: "cli_shop", scopes: [])

    @Test(
        "every holder at every route class",
        arguments: [
            (TokenHolder.firstParty, RouteClass.firstParty, TokenAccess.Decision.allowed),
            (.firstParty, .operatorAccess, .allowed),
            (.firstParty, .boundOperation, .allowed),
            (.firstParty, .partner(scope: "openid"), .refused(.notDelegated)),
            (partner, .firstParty, .refused(.delegatedToken)),
            (partner, .operatorAccess, .refused(.delegatedToken)),
            (partner, .partner(scope: "openid"), .allowed),
            (partner, .partner(scope: "consents"), .allowed),
            (partner, .partner(scope: "email"), .refused(.scopeMissing("email"))),
            (partner, .boundOperation, .allowed),
            (consentToken, .firstParty, .refused(.delegatedToken)),
            (consentToken, .operatorAccess, .refused(.delegatedToken)),
            (consentToken, .partner(scope: "consents"), .refused(.scopeMissing("consents"))),
            (consentToken, .boundOperation, .allowed),
        ])
    func decision(holder: TokenHolder, route: RouteClass, expected: TokenAccess.Decision) {
        #expect(TokenAccess.decide(holder, at: route) == expected)
    }

    @Test("a token's claims name its holder: no client is first-party, a client with its scopes is a partner")
    func holderFromClaims() {
        #expect(TokenHolder(clientID: nil, scope: "openid") == .firstParty)
        #expect(TokenHolder(clientID: "cli_a", scope: "openid email") == .partner(clientID: "cli_a", scopes: ["openid", "email"]))
        #expect(TokenHolder(clientID: "cli_a", scope: nil) == .partner(clientID: "cli_a", scopes: []))
        #expect(TokenHolder.firstParty.scopes == [])
    }
}
