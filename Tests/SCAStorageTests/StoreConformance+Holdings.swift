import Foundation
import SCACore
import SCAStorage
import Testing

// What an export of a user's data reads (`holdings(userID:)`), checked on every backend: the
// user's own rows of each kind, oldest first, and nobody else's.
extension StoreConformance {
    func holdingsAreTheUsersOwn() async throws {
        try await store.createSession(makeSession("s1"), refreshToken: nil)
        try await store.createSession(
            SessionRecord(id: "s2", userID: "u1", operation: .login, challengeID: "c2", createdAt: t0 + 9, lastUsedAt: t0 + 9,
                clientID: "cli_a"),
            refreshToken: nil)
        try await store.createSession(
            SessionRecord(id: "s3", userID: "u2", operation: .login, challengeID: "c3", createdAt: t0, lastUsedAt: t0),
            refreshToken: nil)
        let grant = AuthorizationGrantRecord(
            codeHash: [9, 9, 9], clientID: "cli_a", redirectURI: "https://shop.example/cb", userID: "u1", sessionID: "s2",
            scopes: ["openid"], nonce: "n-1", codeChallenge: "challenge", authTime: t0 + 9, sealedTokens: [7, 7],
            expiresAt: t0 + 60)
        try await store.insertAuthorizationGrant(grant)
        let consent = ConsentRecord(
            id: "cst_1", clientID: "cli_a", userID: "u1", operation: .settingsChange, summary: "x",
            redirectURL: "https://shop.example/consent", createdAt: t0, expiresAt: t0 + 900)
        try await store.insertConsent(consent, auditing: consentEntry("cst_1", to: "Created"))
        try await store.insertOperation(makeOperation("op_1"))

        let holdings = try await store.holdings(userID: "u1")
        #expect(holdings.sessions.map(\.id) == ["s1", "s2"])
        #expect(holdings.authorizationGrants == [grant])
        #expect(holdings.consents.map(\.id) == ["cst_1"])
        #expect(holdings.operations.map(\.id) == ["op_1"])
        let other = try await store.holdings(userID: "u2")
        #expect(other.sessions.map(\.id) == ["s3"])
        #expect(other.authorizationGrants.isEmpty && other.consents.isEmpty && other.operations.isEmpty)
        #expect(try await store.holdings(userID: "nobody") == UserHoldings())
    }
}
