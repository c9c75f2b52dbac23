import Foundation
import JWTKit
import SCACore
import SCAEngine
import Testing

@Suite("Login flows through the real routes")
struct LoginFlowTests {
    @Test("password + TOTP, deferred verdict: partial, then a token any JWT library verifies with the JWKS")
    func passwordAndTOTPDeferred() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("savvy@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "savvy@example.com")
            #expect(challenge.verdict == .deferred)
            #expect(challenge.requiredCategories == 2)
            #expect(challenge.methods.map(\.id) == [.password, .totp, .emailOTP])
            #expect(Base64URL.decode(challenge.nonce)?.count == 32)

            let partial = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(partial.status == 200)
            let progress = try partial.decode(ProofResponse.self)
            #expect(progress.status == .partial)
            #expect(progress.satisfiedCategories == [.knowledge])
            #expect(progress.remainingCategories == 1)

            let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
            let complete = try done.decode(ProofResponse.self)
            #expect(complete.status == .complete)
            #expect(complete.amr == [.password, .totp])
            #expect(complete.acr == "psd2.sca")
            #expect(complete.refreshToken != nil)
            let accessToken = try #require(complete.accessToken)

            // Verify with jwt-kit fed only the published JWKS, as an outside service would.
            let jwks = try await api.send(.get, "/.well-known/jwks.json")
            let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: jwks.body, as: UTF8.self))
            let claims = try await keys.verify(accessToken, as: OutsideClaims.self)
            #expect(claims.sub.value == userID)
            #expect(claims.op == "login")
            #expect(claims.amr == ["password", "totp"])

            let state = try await api.send(.get, "/v1/challenges/\(challenge.challengeId)").decode(ChallengeResponse.self)
            #expect(state.state == .completed)
        }
    }

    @Test("password + TOTP, immediate verdict: each proof answered on arrival")
    func passwordAndTOTPImmediate() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("imm@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "imm@example.com")
            #expect(challenge.verdict == .immediate)

            let wrong = try await api.prove(challenge.challengeId, .password, "wrong password!")
            #expect(wrong.status == 401)
            #expect(wrong.problem?.code == .proofRejected)
            #expect(wrong.problem?.remainingAttempts == 4)

            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").decode(ProofResponse.self).status == .partial)
            let complete = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self)
            #expect(complete.status == .complete)
            #expect(complete.accessToken != nil)
        }
    }

    @Test("password + SMS code read from the outbox")
    func passwordAndSMS() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("sms@example.com", phone: "+33612345612")
            let challenge = try await api.startChallenge(email: "sms@example.com")
            #expect(challenge.methods.map(\.id).contains(.smsOTP))

            let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(sent.status == 202)
            let receipt = try sent.decode(CodeSentResponse.self)
            #expect(receipt.sentTo == "+33*******12")
            #expect(receipt.resendAfter == 30)

            let tooSoon = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(tooSoon.status == 429)
            #expect(tooSoon.problem?.code == .otpResendTooSoon)
            #expect(tooSoon.headers[.retryAfter] == "30")

            let code = try api.lastCode(sentTo: "+33612345612")
            #expect(InputRules.isDigits(code, count: 6))
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            let complete = try await api.prove(challenge.challengeId, .smsOTP, code).decode(ProofResponse.self)
            #expect(complete.status == .complete)
            #expect(complete.amr == [.password, .smsOTP])
        }
    }

    @Test("an SMS code is single use and bound to its challenge")
    func smsCodeSingleUse() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            _ = try await api.createUser("once@example.com", phone: "+33612345613")
            let first = try await api.startChallenge(email: "once@example.com")
            #expect(try await api.sendCode(first.challengeId, .smsOTP).status == 202)
            let code = try api.lastCode(sentTo: "+33612345613")

            let other = try await api.startChallenge(email: "once@example.com")
            let elsewhere = try await api.prove(other.challengeId, .smsOTP, code)
            #expect(elsewhere.problem?.code == .proofRejected)

            #expect(try await api.prove(first.challengeId, .smsOTP, code).status == 200)
            // Used once stays strict; the right code again is refused, but it is no guess.
            let again = try await api.prove(first.challengeId, .smsOTP, code)
            #expect(again.status == 409)
            #expect(again.problem?.code == .codeAlreadyUsed)
        }
    }

    @Test("a code expires after its lifetime, and at most five are sent per challenge")
    func codeLifetimeAndSendLimit() async throws {
        try await TestServer {
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
            $0.codeLifetime = 60
            // This test is about the per-challenge cap (5 sends); the budgets across
            // challenges (3 per destination in 10 minutes by default) are SendLimitTests'.
            $0.rateLimits.sendsPerDestination = [RateWindow(count: 10, seconds: 600)]
        }.run { api in
            _ = try await api.createUser("limit@example.com", phone: "+33612345614")
            let challenge = try await api.startChallenge(email: "limit@example.com")
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            let stale = try api.lastCode(sentTo: "+33612345614")
            api.clock.advance(by: 61)
            #expect(try await api.prove(challenge.challengeId, .smsOTP, stale).problem?.code == .proofRejected)

            for _ in 0..<4 {
                #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
                api.clock.advance(by: 31)
            }
            let sixth = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(sixth.status == 429)
            #expect(sixth.problem?.code == .otpSendLimit)
            // The last code sent is still good (sent 31 s ago).
            let fresh = try api.lastCode(sentTo: "+33612345614")
            #expect(try await api.prove(challenge.challengeId, .smsOTP, fresh).status == 200)
        }
    }

    @Test("a replayed TOTP code is refused, as a replay and not a guess")
    func replayedTOTP() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("replay@example.com")
            let totp = try await api.enrollTOTP(userID)
            let code = totp.code(at: api.clock.now())

            let first = try await api.startChallenge(email: "replay@example.com")
            #expect(try await api.prove(first.challengeId, .totp, code).status == 200)

            let second = try await api.startChallenge(email: "replay@example.com")
            let replay = try await api.prove(second.challengeId, .totp, code)
            #expect(replay.status == 409)
            #expect(replay.problem?.code == .codeAlreadyUsed)
            // The previous step's code is older than the burnt one: refused too.
            let older = try await api.prove(second.challengeId, .totp, totp.code(forStep: totp.step(at: api.clock.now()) - 1))
            #expect(older.problem?.code == .codeAlreadyUsed)
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 0)
            // The next step is accepted.
            api.clock.advance(by: 30)
            #expect(try await api.prove(second.challengeId, .totp, totp.code(at: api.clock.now())).status == 200)
        }
    }

    @Test("an expired challenge refuses proofs (injected clock)")
    func expiredChallenge() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("late@example.com")
            let challenge = try await api.startChallenge(email: "late@example.com")
            api.clock.advance(by: 301)
            let late = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(late.status == 409)
            #expect(late.problem?.code == .challengeExpired)
            let state = try await api.send(.get, "/v1/challenges/\(challenge.challengeId)").decode(ChallengeResponse.self)
            #expect(state.state == .expired)
        }
    }

    @Test("a completed challenge is not reusable, and a cancelled one takes nothing")
    func completedAndCancelled() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("done@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "done@example.com")
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).status == 200)
            let again = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(again.status == 409)
            #expect(again.problem?.code == .challengeCompleted)

            let other = try await api.startChallenge(email: "done@example.com")
            let cancelled = try await api.send(.delete, "/v1/challenges/\(other.challengeId)")
            #expect(try cancelled.decode(ChallengeResponse.self).state == .cancelled)
            #expect(try await api.prove(other.challengeId, .password, "correct horse battery").problem?.code == .challengeCancelled)
            #expect(try await api.send(.delete, "/v1/challenges/\(other.challengeId)").status == 409)
        }
    }

    @Test("20 parallel proofs on one challenge give exactly one token")
    func parallelProofsCompleteOnce() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("race@example.com", pin: "1357")
            _ = userID
            let challenge = try await api.startChallenge(email: "race@example.com")
            _ = try await api.sendCode(challenge.challengeId, .emailOTP)
            let code = try api.lastCode(sentTo: "race@example.com")
            #expect(try await api.prove(challenge.challengeId, .emailOTP, code).decode(ProofResponse.self).status == .partial)

            let statuses = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let method: AuthenticationMethod = index.isMultiple(of: 2) ? .password : .pin
                        let response = try await api.prove(
                            challenge.challengeId, method, method == .password ? "correct horse battery" : "1357")
                        let complete = response.status == 200 && (try? response.decode(ProofResponse.self))?.accessToken != nil
                        return (response.status, complete)
                    }
                }
                return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
            }
            #expect(statuses.filter(\.1).count == 1)
            // The others were refused as already completed, while another proof was being
            // checked, or (deferred) as a second knowledge proof in the round.
            #expect(statuses.filter { !$0.1 }.allSatisfy { [409, 429].contains($0.0) })
        }
    }

    @Test("a method not offered, or not enrolled, is refused with 422 and counts nothing")
    func methodNotOffered() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("plain@example.com")
            let challenge = try await api.startChallenge(email: "plain@example.com")
            let totp = try await api.prove(challenge.challengeId, .totp, "123456")
            #expect(totp.status == 422)
            #expect(totp.problem?.code == .methodNotOffered)
            let sms = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(sms.problem?.code == .methodNotOffered)
            let user = try #require(try await api.services.users.find("plain@example.com"))
            #expect(user.lockout.failedAttempts == 0)
        }
    }
}

/// The claims an outside verifier reads, decoded without our own types.
struct OutsideClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var op: String
    var amr: [String]
    var sid: String
    var txn: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
