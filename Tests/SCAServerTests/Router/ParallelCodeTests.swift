import Foundation
import SCACore
import SCAEngine
import Testing

/// A right code sent many times at once completes the challenge once and is never counted as
/// a failed attempt: the losers of the race are not guessing.
@Suite("Right codes in parallel: one completion, no failure counted")
struct ParallelCodeTests {
    /// Sends `count` copies of one proof at once; returns the statuses and how many completed.
    static func race(
        _ api: APIClient, _ challengeID: String, _ method: AuthenticationMethod, _ code: String, count: Int
    ) async throws -> (statuses: [Int], completed: Int) {
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for _ in 0..<count {
                group.addTask {
                    let response = try await api.prove(challengeID, method, code)
                    return (response.status, (try? response.decode(ProofResponse.self))?.accessToken != nil)
                }
            }
            return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
        }
        return (results.map(\.0), results.filter(\.1).count)
    }

    static func expectNoFailureCounted(_ api: APIClient, _ userID: String) async throws {
        let lockout = try #require(try await api.services.store.user(id: userID)?.lockout)
        #expect(lockout.failedAttempts == 0)
        #expect(lockout.temporaryBlocks == 0)
        #expect(lockout.lockedUntil == nil)
    }

    @Test("the same valid TOTP sent 10 and 50 times at once", arguments: [Verdict.deferred, .immediate], [10, 50])
    func parallelTOTP(verdict: Verdict, count: Int) async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: verdict) }.run { api in
            let userID = try await api.createUser("totp-race@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "totp-race@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            let race = try await Self.race(api, challenge.challengeId, .totp, totp.code(at: api.clock.now()), count: count)
            #expect(race.completed == 1)
            #expect(race.statuses.filter { $0 == 200 }.count == 1)
            #expect(race.statuses.filter { $0 == 409 }.count == count - 1)
            try await Self.expectNoFailureCounted(api, userID)
        }
    }

    @Test("the same valid SMS code sent 10 and 50 times at once", arguments: [Verdict.deferred, .immediate], [10, 50])
    func parallelSMS(verdict: Verdict, count: Int) async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: verdict) }.run { api in
            let userID = try await api.createUser("sms-race@example.com", phone: "+33612345003")
            let challenge = try await api.startChallenge(email: "sms-race@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            let code = try api.lastCode(sentTo: "+33612345003")
            let race = try await Self.race(api, challenge.challengeId, .smsOTP, code, count: count)
            #expect(race.completed == 1)
            #expect(race.statuses.filter { $0 == 409 }.count == count - 1)
            try await Self.expectNoFailureCounted(api, userID)
        }
    }

    @Test("a replayed right code is refused but not counted; a wrong code still counts")
    func replayIsNoGuessButWrongCounts() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("replay@example.com")
            let totp = try await api.enrollTOTP(userID)
            let code = totp.code(at: api.clock.now())
            let first = try await api.startChallenge(email: "replay@example.com")
            #expect(try await api.prove(first.challengeId, .password, "correct horse battery").status == 200)
            #expect(try await api.prove(first.challengeId, .totp, code).status == 200)

            let second = try await api.startChallenge(email: "replay@example.com")
            let wrong = try await api.prove(second.challengeId, .totp, DeferredVerdictTests.wrongCode(totp, at: api.clock.now()))
            #expect(wrong.problem?.code == .proofRejected)
            #expect(wrong.problem?.remainingAttempts == 4)
            let replay = try await api.prove(second.challengeId, .totp, code)
            #expect(replay.status == 409)
            #expect(replay.problem?.code == .codeAlreadyUsed)
            // Used once stays strict, and the replay cost nothing: still one failure.
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 1)
            // A replay does not take the challenge's place: the next step's code completes it.
            api.clock.advance(by: 30)
            #expect(try await api.prove(second.challengeId, .password, "correct horse battery").status == 200)
            let done = try await api.prove(second.challengeId, .totp, totp.code(at: api.clock.now()))
            #expect(try done.decode(ProofResponse.self).status == .complete)
        }
    }

    @Test("a wrong code sent alongside right ones on another challenge is counted")
    func wrongCodeInParallelCounts() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("mixed@example.com")
            let totp = try await api.enrollTOTP(userID)
            let right = try await api.startChallenge(email: "mixed@example.com")
            let other = try await api.startChallenge(email: "mixed@example.com")
            let code = totp.code(at: api.clock.now())
            let wrongCode = DeferredVerdictTests.wrongCode(totp, at: api.clock.now())
            let statuses = try await withThrowingTaskGroup(of: (Bool, APIResponse).self) { group in
                for index in 0..<10 {
                    group.addTask { (false, try await api.prove(right.challengeId, .totp, code)) }
                    if index == 5 { group.addTask { (true, try await api.prove(other.challengeId, .totp, wrongCode)) } }
                }
                return try await group.reduce(into: [(Bool, APIResponse)]()) { $0.append($1) }
            }
            let wrong = try #require(statuses.first { $0.0 }?.1)
            #expect(wrong.status == 401)
            #expect(wrong.problem?.code == .proofRejected)
            // The right ones: one accepted, the others refused unevaluated or as replays; none counted.
            #expect(statuses.filter { !$0.0 && $0.1.status == 200 }.count == 1)
            #expect(statuses.filter { !$0.0 }.allSatisfy { [200, 409].contains($0.1.status) })
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 1)
        }
    }
}
