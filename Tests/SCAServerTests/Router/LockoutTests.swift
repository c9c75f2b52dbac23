import Foundation
import SCACore
import SCAEngine
import SCAStorage
import Testing

@Suite("Lockout (RTS art. 4): consecutive failures per user")
struct LockoutTests {
    @Test("a wrong password is counted; a deferred verdict does not say which element was wrong")
    func wrongPasswordCountedDeferred() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("count@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "count@example.com")
            let first = try await api.prove(challenge.challengeId, .password, "not the password")
            #expect(try first.decode(ProofResponse.self).status == .partial)  // nothing revealed yet
            let verdict = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
            #expect(verdict.status == 401)
            #expect(verdict.problem?.code == .authenticationFailed)
            #expect(verdict.problem?.remainingAttempts == 4)
            // Collected proofs are discarded: the user tries again on the same challenge.
            let state = try await api.send(.get, "/v1/challenges/\(challenge.challengeId)").decode(ChallengeResponse.self)
            #expect(state.state == .pending)
            #expect(state.satisfiedCategories.isEmpty)
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            api.clock.advance(by: 30)
            let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
            #expect(try done.decode(ProofResponse.self).status == .complete)
            // A completed authentication resets the count.
            #expect(try await api.services.users.find(userID)?.lockout.failedAttempts == 0)
        }
    }

    @Test("5 wrong attempts, then 423 with Retry-After; the block lifts after 15 minutes")
    func fiveWrongThenLocked() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            _ = try await api.createUser("lock@example.com")
            let challenge = try await api.startChallenge(email: "lock@example.com")
            for expected in stride(from: 4, through: 0, by: -1) {
                let wrong = try await api.prove(challenge.challengeId, .password, "wrong password \(expected)")
                #expect(wrong.status == 401)
                #expect(wrong.problem?.remainingAttempts == expected)
            }
            let locked = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(locked.status == 423)
            #expect(locked.problem?.code == .userLocked)
            #expect(locked.headers[.retryAfter] == "900")
            // Across challenges too.
            let other = try await api.startChallenge(email: "lock@example.com")
            #expect(try await api.prove(other.challengeId, .password, "correct horse battery").status == 423)

            api.clock.advance(by: 900)
            let fresh = try await api.startChallenge(email: "lock@example.com")
            #expect(try await api.prove(fresh.challengeId, .password, "correct horse battery").status == 200)
        }
    }

    @Test("blocks double, the user is alerted before the permanent one, and an operator can unblock")
    func escalationAlertAndUnblock() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("esc@example.com", phone: "+33612345615")
            var retryAfters: [String?] = []
            for _ in 0..<4 {
                let challenge = try await api.startChallenge(email: "esc@example.com")
                for _ in 0..<5 { try await api.prove(challenge.challengeId, .password, "wrong password!") }
                let locked = try await api.prove(challenge.challengeId, .password, "wrong password!")
                #expect(locked.status == 423)
                retryAfters.append(locked.headers[.retryAfter])
                if let seconds = locked.headers[.retryAfter].flatMap(Double.init) { api.clock.advance(by: seconds) }
            }
            #expect(retryAfters == ["900", "1800", "3600", nil])  // the fourth block is permanent

            let alerts = try #require(api.services.outbox).messages().filter { $0.text.contains("blocked") }
            let warning = try #require(alerts.first { $0.text.contains("permanently") && $0.to == "esc@example.com" })
            #expect(warning.text.contains("One more series"))
            #expect(alerts.contains { $0.to == "+33612345615" })
            #expect(alerts.count == 4)  // warning + final notice, each by e-mail and SMS

            api.clock.advance(by: 86_400)
            let still = try await api.startChallenge(email: "esc@example.com")
            #expect(try await api.prove(still.challengeId, .password, "correct horse battery").status == 423)

            #expect(try await api.send(.post, "/admin/v1/users/\(userID)/unblock", admin: true).status == 200)
            let after = try await api.startChallenge(email: "esc@example.com")
            #expect(try await api.prove(after.challengeId, .password, "correct horse battery").status == 200)
        }
    }

    @Test("a user who signed up by phone is alerted by SMS only, never at their placeholder e-mail")
    func phoneUserAlertedBySMS() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("phone-alert@example.com", phone: "+33612345617")
            let placeholder = SignUpSettings.placeholderEmail(forPhone: "+33612345617")
            _ = try await api.services.store.updateUser(id: userID, UserUpdate(email: placeholder, loginPhone: "+33612345617"))
            for _ in 0..<3 {
                let challenge = try await api.startChallenge(.login, userID: userID, device: nil).decode(ChallengeResponse.self)
                for _ in 0..<5 { try await api.prove(challenge.challengeId, .password, "wrong password!") }
                if let seconds = try await api.prove(challenge.challengeId, .password, "wrong password!").headers[.retryAfter]
                    .flatMap(Double.init)
                {
                    api.clock.advance(by: seconds)
                }
            }
            let alerts = try #require(api.services.outbox).messages().filter { $0.text.contains("blocked") }
            #expect(alerts.contains { $0.to == "+33612345617" && $0.text.contains("permanently") })
            #expect(!alerts.isEmpty && alerts.allSatisfy { $0.to == "+33612345617" })
        }
    }

    @Test("50 parallel wrong proofs for one user: exactly 5 are evaluated, then 423")
    func parallelWrongGuesses() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            _ = try await api.createUser("burst@example.com")
            var challenges: [String] = []
            for _ in 0..<5 { challenges.append(try await api.startChallenge(email: "burst@example.com").challengeId) }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 {
                    let challengeID = challenges[index % challenges.count]
                    group.addTask { try await api.prove(challengeID, .password, "guess number \(index)").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Every evaluated guess answers 401; refused ones answer 423 (blocked), 429 (in
            // progress) or 409 (another proof for the same challenge was being checked).
            #expect(statuses.filter { $0 == 401 }.count == 5)
            #expect(statuses.allSatisfy { [401, 409, 423, 429].contains($0) })
            let next = try await api.prove(challenges[0], .password, "correct horse battery")
            #expect(next.status == 423)
        }
    }

    @Test("a higher failure limit than the RTS allows is refused at start-up")
    func limitAboveFiveRefused() async throws {
        var configuration = ServerConfiguration()
        configuration.lockout.maxFailedAttempts = 6
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader().load(file: nil, environment: ["SCA_MAX_FAILED_ATTEMPTS": "10"], flags: [:])
        }
    }
}
