import Foundation
import SCACore
import SCAEngine
import Testing

@Suite("Operation-scoped tokens, refresh and introspection")
struct TokenTests {
    @Test("a login token is active for login and not for op=payment")
    func loginTokenNotForPayment() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("scope@example.com")
            let tokens = try await api.logIn("scope@example.com", totp: try await api.enrollTOTP(userID))
            let token = try #require(tokens.accessToken)
            let asLogin = try await api.introspect(token, operation: .login)
            #expect(asLogin.active)
            #expect(asLogin.sub == userID)
            #expect(asLogin.op == .login)
            #expect(try await api.introspect(token, operation: .payment).active == false)
            #expect(try await api.introspect(token).active)
        }
    }

    @Test("a token from a challenge proven with one category says acr single-factor, never psd2.sca")
    func singleCategoryTokenIsSingleFactor() async throws {
        try await TestServer {
            $0.policies[.login] = OperationPolicy(requiredCategories: 1, verdict: .immediate)
        }.run { api in
            _ = try await api.createUser("one@example.com")
            let challenge = try await api.startChallenge(email: "one@example.com")
            let proof = try await api.prove(challenge.challengeId, .password, "correct horse battery").decode(ProofResponse.self)
            #expect(proof.acr == TokenResponse.singleFactorACR)
            let token = try #require(proof.accessToken)
            #expect(try jwtClaims(token)["acr"] as? String == "single-factor")
            #expect(try await api.introspect(token).acr == "single-factor")
        }
        // Two categories still earn psd2.sca.
        try await TestServer().run { api in
            let userID = try await api.createUser("two@example.com")
            let tokens = try await api.logIn("two@example.com", totp: try await api.enrollTOTP(userID))
            #expect(tokens.acr == TokenResponse.scaACR)
            #expect(try jwtClaims(try #require(tokens.accessToken))["acr"] as? String == "psd2.sca")
        }
    }

    @Test("a payment policy of one category is refused at start-up: a payment token must say psd2.sca")
    func paymentNeedsTwoCategories() throws {
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader().load(file: nil, environment: [:], flags: ["requiredCategories.payment": "1"])
        }
        #expect(try ConfigurationLoader().load(file: nil, environment: [:], flags: ["requiredCategories.login": "1"])
            .policy(for: .login).requiredCategories == 1)
    }

    @Test("a payment token is bound to its transaction and consumed once, ever")
    func paymentTokenBoundAndConsumedOnce() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("payer@example.com")
            let totp = try await api.enrollTOTP(userID)
            let transaction = Transaction(
                amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))
            let challenge = try await api.startChallenge(.payment, email: "payer@example.com", transaction: transaction)
            #expect(challenge.display?.iban == "FR76…0189")
            #expect(challenge.transactionDigest != nil)
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            let complete = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self)
            #expect(complete.refreshToken == nil)  // a payment authorisation is not renewable
            let token = try #require(complete.accessToken)

            var tampered = transaction
            tampered.amount = "125.01"
            #expect(try await api.introspect(token, transaction: tampered).active == false)
            var otherPayee = transaction
            otherPayee.payee.name = "ACME SA"
            #expect(try await api.introspect(token, transaction: otherPayee).active == false)

            let first = try await api.introspect(token, transaction: transaction, consume: true)
            #expect(first.active)
            #expect(first.txn == challenge.transactionDigest)
            #expect(try await api.introspect(token, transaction: transaction, consume: true).active == false)
        }
    }

    @Test("refresh rotates; a reused refresh token revokes its whole family")
    func refreshRotationAndReuse() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("rot@example.com")
            let tokens = try await api.logIn("rot@example.com", totp: try await api.enrollTOTP(userID))
            let original = try #require(tokens.refreshToken)

            let rotated = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: original))
            #expect(rotated.status == 200)
            let second = try rotated.decode(TokenResponse.self)
            let next = try #require(second.refreshToken)
            #expect(next != original)
            #expect(second.amr == [.password, .totp])
            #expect(try await api.introspect(second.accessToken).active)

            let reuse = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: original))
            #expect(reuse.status == 401)
            #expect(reuse.problem?.code == .tokenReused)
            // The whole family is gone: the newer refresh token and the access tokens too.
            #expect(try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: next)).status == 401)
            #expect(try await api.introspect(second.accessToken).active == false)
        }
    }

    @Test("a session ends after 5 minutes without use; use keeps it alive")
    func idleSessionEnds() async throws {
        try await TestServer { $0.accessTokenLifetime = 3_600 }.run { api in
            let userID = try await api.createUser("idle@example.com")
            let tokens = try await api.logIn("idle@example.com", totp: try await api.enrollTOTP(userID))
            let access = try #require(tokens.accessToken)
            api.clock.advance(by: 299)
            #expect(try await api.introspect(access).active)
            api.clock.advance(by: 299)
            #expect(try await api.introspect(access).active)
            api.clock.advance(by: 301)
            #expect(try await api.introspect(access).active == false)
            let refresh = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: try #require(tokens.refreshToken)))
            #expect(refresh.problem?.code == .sessionExpired)
        }
    }

    @Test("revoke ends the session of an access or a refresh token; expired tokens are inactive")
    func revokeAndExpiry() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("rev@example.com")
            let totp = try await api.enrollTOTP(userID)
            let first = try await api.logIn("rev@example.com", totp: totp)
            #expect(try await api.post("/v1/tokens/revoke", RevokeRequest(token: try #require(first.accessToken))).status == 200)
            #expect(try await api.introspect(try #require(first.accessToken)).active == false)

            api.clock.advance(by: 30)
            let second = try await api.logIn("rev@example.com", totp: totp)
            #expect(try await api.post("/v1/tokens/revoke", RevokeRequest(token: try #require(second.refreshToken))).status == 200)
            #expect(try await api.introspect(try #require(second.accessToken)).active == false)

            api.clock.advance(by: 30)
            let third = try await api.logIn("rev@example.com", totp: totp)
            api.clock.advance(by: 301)
            #expect(try await api.introspect(try #require(third.accessToken)).active == false)
            #expect(try await api.introspect("not.a.jwt").active == false)
            #expect(try await api.post("/v1/tokens/revoke", RevokeRequest(token: "unknown")).status == 200)
        }
    }
}
