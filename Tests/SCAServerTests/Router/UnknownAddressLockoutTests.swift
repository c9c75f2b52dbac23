import Foundation
import SCACore
import SCAEngine
import Testing

/// An address that matches no user has failure counters of its own (keyed by a keyed hash of
/// what was typed), so it locks, blocks and grows exactly like a real user, across challenges.
@Suite("Unknown addresses lock like real users")
struct UnknownAddressLockoutTests {
    typealias Answer = DeferredVerdictTests.Answer

    /// Six challenges in a row, each given one wrong password (immediate) or one wrong round
    /// (deferred); then the same after the first block has run out.
    static func answers(_ email: String, _ api: APIClient, verdict: Verdict) async throws -> [Answer] {
        var answers: [Answer] = []
        for _ in 0..<2 {
            for _ in 0..<6 {
                let challenge = try await api.startChallenge(email: email)
                let first = try await api.prove(challenge.challengeId, .password, "not the password")
                guard verdict == .deferred, first.status == 200 else {
                    answers.append(Answer(first))
                    continue
                }
                answers.append(Answer(try await api.prove(challenge.challengeId, .smsOTP, "000000")))
            }
            // No operator: waiting out the block lifts it, and the next one is twice as long.
            let wait = answers.last?.retryAfter.flatMap(TimeInterval.init) ?? 0
            api.clock.advance(by: wait)
        }
        return answers
    }

    @Test("the same 401/423 sequence and Retry-After as a real user, across challenges", arguments: [Verdict.immediate, .deferred])
    func unknownAddressLocksLikeRealUser(verdict: Verdict) async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: verdict) }.run { api in
            _ = try await api.createUser("real@example.com", phone: "+33612345004")
            let real = try await Self.answers("real@example.com", api, verdict: verdict)
            // Typed in another case: the same address, the same counters.
            let ghost = try await Self.answers("Ghost@Example.com", api, verdict: verdict)
            #expect(real.map(\.status) == [401, 401, 401, 401, 401, 423, 401, 401, 401, 401, 401, 423])
            #expect(real.compactMap(\.retryAfter) == ["900", "1800"])
            #expect(ghost == real)
        }
    }

    @Test("a wait lifts an unknown address's block like a real user's, and each address counts alone")
    func waitLiftsTheBlock() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            for _ in 0..<5 {
                let challenge = try await api.startChallenge(email: "nobody@example.com")
                #expect(try await api.prove(challenge.challengeId, .password, "guess").status == 401)
            }
            let blocked = try await api.startChallenge(email: "nobody@example.com")
            let locked = try await api.prove(blocked.challengeId, .password, "guess")
            #expect(locked.status == 423)
            #expect(locked.headers[.retryAfter] == "900")
            // Another unknown address is not affected.
            let other = try await api.startChallenge(email: "somebody-else@example.com")
            #expect(try await api.prove(other.challengeId, .password, "guess").problem?.remainingAttempts == 4)

            // (Challenges live five minutes: each wait needs a new one, as it would for a user.)
            api.clock.advance(by: 899)
            let almost = try await api.startChallenge(email: "nobody@example.com")
            #expect(try await api.prove(almost.challengeId, .password, "guess").headers[.retryAfter] == "1")
            api.clock.advance(by: 1)
            let after = try await api.startChallenge(email: "nobody@example.com")
            let lifted = try await api.prove(after.challengeId, .password, "guess")
            #expect(lifted.status == 401)
            #expect(lifted.problem?.remainingAttempts == 4)

            // The store keys the counters by a keyed hash, never the address.
            let key = try #require(try await api.services.store.challenge(id: blocked.challengeId)?.subjectKey)
            #expect(!key.lowercased().contains("nobody"))
            #expect(try await api.services.store.challenge(id: other.challengeId)?.subjectKey != key)
        }
    }
}
