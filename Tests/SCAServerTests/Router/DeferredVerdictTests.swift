import Foundation
import SCACore
import SCAEngine
import Testing

/// Under the deferred verdict one round (the proofs collected until the verdict) is one
/// authentication attempt, whichever of its elements were wrong (RTS art. 4(2)(c)).
@Suite("Deferred verdict: one round, one attempt")
struct DeferredVerdictTests {
    /// A six-digit code no TOTP step within the accepted drift produces at `now`.
    static func wrongCode(_ totp: TOTP, at now: Date) -> String {
        let valid = Set([-30.0, 0, 30].map { totp.code(at: now.addingTimeInterval($0)) })
        return ["000000", "000001", "000002", "000003"].first { !valid.contains($0) }!
    }

    /// What an answer shows, without what differs between any two requests.
    struct Answer: Equatable {
        var status: Int
        var body: String
        var retryAfter: String?

        init(_ response: APIResponse) {
            status = response.status
            body = String(decoding: response.body, as: UTF8.self)
            retryAfter = response.headers[.retryAfter]
        }
    }

    /// Carries answers out of a server run.
    actor AnswerLog {
        var answers: [Answer] = []
        func keep(_ answers: [Answer]) { self.answers = answers }
    }

    @Test("right password + wrong code and wrong + wrong: same answers, same count in the store")
    func whichElementFailedIsNotTold() async throws {
        try await TestServer().run { api in
            // The same wrong SMS code for both: first the element is right, then wrong.
            func round(_ email: String, phone: String, password: String) async throws -> (Answer, Answer, Answer) {
                let challenge = try await api.startChallenge(email: email)
                let first = try await api.prove(challenge.challengeId, .password, password)
                let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
                let code = try api.lastCode(sentTo: phone)
                let verdict = try await api.prove(challenge.challengeId, .smsOTP, code == "000000" ? "000001" : "000000")
                return (Answer(first), Answer(sent), Answer(verdict))
            }
            let rightID = try await api.createUser("right@example.com", phone: "+33612345001")
            let wrongID = try await api.createUser("wrong@example.com", phone: "+33612345002")
            let right = try await round("right@example.com", phone: "+33612345001", password: "correct horse battery")
            let wrong = try await round("wrong@example.com", phone: "+33612345002", password: "not the password")
            #expect(right.0 == wrong.0)
            #expect(right.0.status == 200)
            #expect(right.2 == wrong.2)
            #expect(right.2.status == 401)
            let problem = try #require(try? JSONDecoder().decode(Problem.self, from: Data(right.2.body.utf8)))
            #expect(problem.code == .authenticationFailed)
            #expect(problem.remainingAttempts == 4)
            let rightLock = try #require(try await api.services.store.user(id: rightID)?.lockout)
            let wrongLock = try #require(try await api.services.store.user(id: wrongID)?.lockout)
            #expect(rightLock == wrongLock)
            #expect(rightLock.failedAttempts == 1)
        }
    }

    @Test("five failed rounds lock exactly like five wrong immediate proofs")
    func roundsLockLikeImmediateProofs() async throws {
        func run(_ verdict: Verdict) async throws -> [Answer] {
            let log = AnswerLog()
            try await TestServer { $0.policies[.login] = OperationPolicy(verdict: verdict) }.run { api in
                let userID = try await api.createUser("five@example.com")
                let totp = try await api.enrollTOTP(userID)
                var collected: [Answer] = []
                for _ in 0..<2 {
                    let challenge = try await api.startChallenge(email: "five@example.com")
                    for _ in 0..<5 {
                        let first = try await api.prove(challenge.challengeId, .password, "not the password")
                        if verdict == .immediate {
                            collected.append(Answer(first))
                        } else {
                            #expect(first.status == 200)
                            let code = Self.wrongCode(totp, at: api.clock.now())
                            collected.append(Answer(try await api.prove(challenge.challengeId, .totp, code)))
                        }
                    }
                    collected.append(Answer(try await api.prove(challenge.challengeId, .password, "correct horse battery")))
                    // An unblock-less wait lifts the block; the next one is twice as long.
                    api.clock.advance(by: 900)
                }
                await log.keep(collected)
            }
            return await log.answers
        }
        let immediate = try await run(.immediate)
        let deferred = try await run(.deferred)
        #expect(immediate.map(\.status) == [401, 401, 401, 401, 401, 423, 401, 401, 401, 401, 401, 423])
        #expect(deferred.map(\.status) == immediate.map(\.status))
        #expect(deferred.map(\.retryAfter) == immediate.map(\.retryAfter))
        #expect(immediate.compactMap(\.retryAfter) == ["900", "1800"])
        let remaining = { (answers: [Answer]) in
            answers.map { try? JSONDecoder().decode(Problem.self, from: Data($0.body.utf8)).remainingAttempts }
        }
        #expect(remaining(deferred) == remaining(immediate))
        #expect(remaining(immediate) == [4, 3, 2, 1, 0, 0, 4, 3, 2, 1, 0, 0])
    }

    @Test("a round takes one proof per category: a second password is refused, not evaluated, not counted")
    func secondPasswordIsNoExtraGuess() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("twice@example.com", pin: "1357")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "twice@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "not the password").status == 200)
            // The right password (or another knowledge element) cannot replace the wrong one.
            for (method, credential) in [(AuthenticationMethod.password, "correct horse battery"), (.pin, "1357")] {
                let again = try await api.prove(challenge.challengeId, method, credential)
                #expect(again.status == 409)
                #expect(again.problem?.code == .categoryAlreadyCollected)
            }
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 1)
            // The round is judged with the wrong password it holds.
            let verdict = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
            #expect(verdict.problem?.code == .authenticationFailed)
            #expect(verdict.problem?.remainingAttempts == 4)
            // A fresh round starts from nothing.
            api.clock.advance(by: 30)
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
            #expect(try done.decode(ProofResponse.self).status == .complete)
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 0)
        }
    }

    @Test("parallel wrong rounds on many challenges never exceed the limit")
    func parallelRoundsStayWithinTheLimit() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("many@example.com")
            let totp = try await api.enrollTOTP(userID)
            var challenges: [String] = []
            for _ in 0..<20 { challenges.append(try await api.startChallenge(email: "many@example.com").challengeId) }
            let firsts = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for (index, challengeID) in challenges.enumerated() {
                    group.addTask { (challengeID, try await api.prove(challengeID, .password, "guess \(index)").status) }
                }
                return try await group.reduce(into: [(String, Int)]()) { $0.append($1) }
            }
            let started = firsts.filter { $0.1 == 200 }.map(\.0)
            #expect(started.count == 5)
            #expect(firsts.allSatisfy { [200, 423, 429].contains($0.1) })
            // The rounds that began are judged; none gives anything back.
            let code = Self.wrongCode(totp, at: api.clock.now())
            let verdicts = try await withThrowingTaskGroup(of: APIResponse.self) { group in
                for challengeID in started { group.addTask { try await api.prove(challengeID, .totp, code) } }
                return try await group.reduce(into: [APIResponse]()) { $0.append($1) }
            }
            #expect(verdicts.allSatisfy { $0.problem?.code == .authenticationFailed && $0.problem?.remainingAttempts == 0 })
            let lockout = try #require(try await api.services.store.user(id: userID)?.lockout)
            #expect(lockout.temporaryBlocks == 1)
            #expect(try await api.prove(challenges[0], .password, "correct horse battery").status == 423)
        }
    }
}
