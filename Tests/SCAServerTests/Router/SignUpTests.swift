import Foundation
import HTTPTypes
import Logging
import SCACore
import SCAEngine
import SCAStorage
import SCAStoragePostgres
import Synchronization
import Testing

/// Sign up or in with a one-time code, through the routes against the real store.
@Suite("Sign up or in with a one-time code")
struct SignUpTests {
    static func signUpOn(_ configuration: inout ServerConfiguration) {
        configuration.signUp.mode = .email
    }

    @Test("new e-mail → code → enrolment → password → full SCA login with password and e-mail code")
    func newAddressEnrolsThenSignsInWithSCA() async throws {
        try await TestServer(Self.signUpOn).run { api in
            let enrolment = try await api.signUp("new@example.com")
            #expect(enrolment.status == .enrolment)
            #expect(enrolment.acr == "single-factor")
            #expect(enrolment.operation == .enrolment)
            #expect(enrolment.refreshToken == nil)
            #expect(enrolment.expiresIn == 600)
            let token = try #require(enrolment.accessToken)
            let claims = try jwtClaims(token)
            #expect(claims["op"] as? String == "enrolment")
            #expect(claims["acr"] as? String == "single-factor")
            #expect(claims["amr"] as? [String] == ["email_otp"])
            #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 600)
            let user = try #require(try await api.services.users.find("new@example.com"))
            #expect(claims["sub"] as? String == user.id)
            #expect(user.enrolledMethods == [.emailOTP])

            let added = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase")))
            #expect(added.status == 200)
            #expect(try added.decode(EnrolmentResponse.self).methods == [.password, .emailOTP])
            // Once is once.
            let again = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(pin: "482913")))
            #expect(again.status == 401)
            #expect(again.problem?.code == .tokenInvalid)

            // A full SCA now: knowledge and possession.
            let challenge = try await api.startChallenge(email: "new@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "a new long passphrase").status == 200)
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            let done = try await api.prove(challenge.challengeId, .emailOTP, try api.lastCode(sentTo: "new@example.com"))
                .decode(ProofResponse.self)
            #expect(done.status == .complete)
            #expect(done.acr == "psd2.sca")

            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft.event)
            #expect(events.filter { $0 == "signup.user_created" }.count == 1)
            #expect(events.filter { $0 == "signup.enrolled" }.count == 1)
        }
    }

    @Test("an enrolment token is refused for a payment and everywhere but the enrolment route")
    func enrolmentTokenRefusedElsewhere() async throws {
        try await TestServer(Self.signUpOn).run { api in
            let token = try #require(try await api.signUp("only@example.com").accessToken)
            let payment = Transaction(amount: "10.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))
            #expect(try await api.introspect(token, operation: .payment).active == false)
            #expect(try await api.introspect(token, transaction: payment, consume: true).active == false)
            #expect(try await api.introspect(token).active == false)
            #expect(try await api.introspect(token, operation: .login).active == false)
            #expect(try await api.introspect(token, operation: .enrolment).active)

            let payChallenge = try WireJSON.encoder().encode(
                CreateChallengeRequest(operation: .payment, user: UserReference(email: "only@example.com"), transaction: payment))
            for (method, path, body) in [
                (HTTPRequest.Method.get, "/v1/devices", nil), (.post, "/v1/activations", nil),
                (.patch, "/v1/me", try WireJSON.encoder().encode(SettingsChangeRequest(password: "another passphrase"))),
                (.get, "/v1/me/beneficiaries", nil), (.get, "/admin/v1/users", nil), (.post, "/v1/challenges", payChallenge),
                (.get, "/v1/passkeys", nil),
            ] as [(HTTPRequest.Method, String, Data?)] {
                let refused = try await api.send(method, path, bearer: token, body: body)
                #expect(refused.status == 403, "\(path)")
                #expect(refused.problem?.code == .enrolmentOnly, "\(path)")
            }
            // Nobody opens an enrolment challenge.
            let opened = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .enrolment, user: UserReference(email: "only@example.com")))
            #expect(opened.status == 400)
            // The token still works once for what it is for.
            let added = try await api.send(
                .post, "/v1/me/enrolment", bearer: token, body: try WireJSON.encoder().encode(EnrolmentRequest(pin: "482913")))
            #expect(added.status == 200)
        }
    }

    @Test("an expired enrolment token is refused, and the sign-up resumes with a new code")
    func expiredEnrolmentTokenResumes() async throws {
        try await TestServer(Self.signUpOn).run { api in
            let token = try #require(try await api.signUp("late@example.com").accessToken)
            api.clock.advance(by: 601)
            let late = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase")))
            #expect(late.status == 401)
            #expect(late.problem?.code == .tokenInvalid)
            // Nothing but the mailbox yet: a new code resumes the sign-up on the same user.
            let userID = try #require(try await api.services.users.find("late@example.com")).id
            let resumed = try await api.signUp("late@example.com")
            #expect(resumed.status == .enrolment)
            #expect(try jwtClaims(try #require(resumed.accessToken))["sub"] as? String == userID)
            #expect(try await api.services.users.list().filter { $0.email == "late@example.com" }.count == 1)
        }
    }

    @Test("bad enrolment requests are refused before the token is used")
    func badEnrolmentRequests() async throws {
        try await TestServer(Self.signUpOn).run { api in
            let token = try #require(try await api.signUp("careful@example.com").accessToken)
            for request in [
                EnrolmentRequest(), EnrolmentRequest(totp: true), EnrolmentRequest(password: "a new long passphrase", pin: "482913"),
                EnrolmentRequest(password: "a new long passphrase", activationCode: true), EnrolmentRequest(pin: "12"),
                EnrolmentRequest(totp: true, activationCode: true),
            ] {
                let refused = try await api.send(.post, "/v1/me/enrolment", bearer: token, body: try WireJSON.encoder().encode(request))
                #expect(refused.status == 400, "\(request)")
                #expect(refused.problem?.code == .requestInvalid)
            }
            let added = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase", totp: true)))
            #expect(added.status == 200)
            let response = try added.decode(EnrolmentResponse.self)
            #expect(response.methods == [.password, .totp, .emailOTP])
            #expect(response.totp != nil)
        }
    }

    @Test("a known e-mail through signup-or-in ends in a normal SCA login, and nothing is created")
    func knownAddressSignsIn() async throws {
        try await TestServer(Self.signUpOn).run { api in
            let userID = try await api.createUser("known@example.com", emailCodes: true)
            let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: "Known@Example.com")))
            #expect(challenge.requiredCategories == 2)
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            let first = try await api.prove(challenge.challengeId, .emailOTP, try api.lastCode(sentTo: "known@example.com"))
                .decode(ProofResponse.self)
            #expect(first.status == .partial)
            #expect(first.accessToken == nil)
            let done = try await api.prove(challenge.challengeId, .password, "correct horse battery").decode(ProofResponse.self)
            #expect(done.status == .complete)
            #expect(done.acr == "psd2.sca")
            #expect(try jwtClaims(try #require(done.accessToken))["sub"] as? String == userID)
            #expect(try await api.services.users.list().count == 1)
        }
    }

    @Test("sign-up off, or a domain not allowed: the same answers as sign-up on, no code sent, nothing created")
    func noOracle() async throws {
        func answers(_ customize: @escaping (inout ServerConfiguration) -> Void) async throws -> [String] {
            try await Self.signUpAnswers(SignUpOrInRequest(email: "nobody@example.com"), code: .emailOTP, to: "nobody@example.com", customize)
        }
        let on = try await answers(Self.signUpOn)
        let off = try await answers { _ in }
        let otherDomain = try await answers {
            $0.signUp.mode = .email
            $0.signUp.emailDomains = ["bank.example"]
        }
        // A decoy profile without e-mail codes still offers the code, sign-up on or off.
        let onNarrow = try await answers {
            $0.signUp.mode = .email
            $0.decoyMethods = [.password, .smsOTP]
        }
        let offNarrow = try await answers { $0.decoyMethods = [.password, .smsOTP] }
        #expect(onNarrow.dropLast(2) == offNarrow.dropLast(2))
        #expect(onNarrow.first?.contains("email_otp") == true)
        #expect(on.dropLast(2) == off.dropLast(2))
        #expect(on.dropLast(2) == otherDomain.dropLast(2))
        #expect(on.suffix(2) == ["delivered:true", "users:0"])
        #expect(off.suffix(2) == ["delivered:false", "users:0"])
        #expect(otherDomain.suffix(2) == ["delivered:false", "users:0"])
    }

    /// What a sign-up-or-in for `request` answers on a server set by `customize`: the
    /// challenge's methods, categories, state and verdict, the mask of the code asked for
    /// (`code`), the status of a guessed code, then whether anything went to `destination` and
    /// how many users exist (the last two, which only sign-up allowed changes).
    static func signUpAnswers(
        _ request: SignUpOrInRequest, code: AuthenticationMethod, to destination: String,
        _ customize: @escaping (inout ServerConfiguration) -> Void
    ) async throws -> [String] {
        let seen = Mutex<[String]>([])
        try await TestServer(customize).run { api in
            let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", request))
            let sent = try await api.sendCode(challenge.challengeId, code)
            #expect(sent.status == 202)
            let mask = try sent.decode(CodeSentResponse.self).sentTo
            let delivered = try api.services.outbox?.messages().contains { $0.to == destination } ?? false
            let guess = try await api.prove(challenge.challengeId, code, "000000")
            let users = try await api.services.users.list().count
            seen.withLock {
                $0 = [
                    "\(challenge.methods.map(\.id.rawValue))", "\(challenge.requiredCategories)", challenge.state.rawValue,
                    challenge.verdict.rawValue, mask, "\(guess.status)", "delivered:\(delivered)", "users:\(users)",
                ]
            }
        }
        return seen.withLock { $0 }
    }

    @Test("sign-up settings: off by default; an unknown mode or a bad domain is refused at start-up")
    func configuration() throws {
        let loader = ConfigurationLoader()
        #expect(try loader.load(file: nil, environment: [:], flags: [:]).signUp.mode == .off)
        let on = try loader.load(file: nil, environment: [:], flags: ["signUp": "email", "signUpEmailDomains": "Bank.example, staff.bank.example"])
        #expect(on.signUp.mode == .email)
        #expect(on.signUp.emailDomains == ["bank.example", "staff.bank.example"])
        for flags in [
            ["signUp": "yes"], ["signUp": "phone,email"], ["signUpEmailDomains": "not a domain"], ["signUpEmailDomains": "localhost"],
            ["signUp": "email", "methods.login": "password,totp"],
            // Sign-up by phone is proven by its SMS code.
            ["signUp": "phone", "methods.login": "password,email_otp"],
            ["signUp": "email,phone", "methods.login": "password,email_otp"],
        ] {
            #expect(throws: ConfigurationError.self, "\(flags)") { try loader.load(file: nil, environment: [:], flags: flags) }
        }
    }

    @Test("20 parallel sign-ups of one address create exactly one user (SQLite)")
    func parallelSignUpsSQLite() async throws {
        try await TestServer(Self.parallelSettings).run { api in try await Self.parallelSignUps(api) }
    }

    @Test(
        "20 parallel sign-ups of one address create exactly one user (PostgreSQL)",
        .enabled(if: ServerPair.databaseURL != nil, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func parallelSignUpsPostgres() async throws {
        try await TestServer.runOnPostgres(Self.parallelSettings) { api in try await Self.parallelSignUps(api) }
    }

    static func parallelSettings(_ configuration: inout ServerConfiguration) {
        signUpOn(&configuration)
        configuration.rateLimits.sendsPerDestination = []
        configuration.rateLimits.sendsPerUser = []
    }

    /// Twenty challenges for one new address, each with its code, proven all at once.
    static func parallelSignUps(_ api: APIClient) async throws {
        var pending: [(challengeID: String, code: String)] = []
        for _ in 0..<20 {
            let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: "race@example.com")))
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            pending.append((challenge.challengeId, try api.lastCode(sentTo: "race@example.com")))
        }
        let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
            for (challengeID, code) in pending { group.addTask { try await api.prove(challengeID, .emailOTP, code) } }
            var all: [APIResponse] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        let users = try await api.services.users.list().filter { $0.email == "race@example.com" }
        #expect(users.count == 1)
        // Proofs for one address at once are bounded by its failure counter like a user's:
        // those beyond it wait (429 `sca.attempts_in_progress`); none is ever a second user.
        #expect(answers.allSatisfy { $0.status == 200 || $0.problem?.code == .attemptsInProgress }, "\(answers.map { "\($0.status) \($0.problem?.code.rawValue ?? "")" })")
        let enrolled = try answers.filter { $0.status == 200 }.map { try $0.decode(ProofResponse.self) }
        #expect(enrolled.count >= 2)
        #expect(enrolled.allSatisfy { $0.status == .enrolment })
        let subjects = try Set(enrolled.map { try jwtClaims(try #require($0.accessToken))["sub"] as? String })
        #expect(subjects == [users.first?.id])
        let created = try await api.services.store.auditEntries(after: 0, limit: 10_000).filter { $0.draft.event == "signup.user_created" }
        #expect(created.count == 1)
    }
}

extension APIClient {
    func decodeSignUp(_ response: APIResponse) throws -> ChallengeResponse {
        #expect(response.status == 201, "\(response.problem?.code.rawValue ?? "")")
        return try response.decode(ChallengeResponse.self)
    }

    /// signup-or-in, the e-mail code sent and proven; returns the proof's answer.
    func signUp(_ email: String) async throws -> ProofResponse {
        let challenge = try decodeSignUp(try await post("/v1/signup-or-in", SignUpOrInRequest(email: email)))
        #expect(try await sendCode(challenge.challengeId, .emailOTP).status == 202)
        let proof = try await prove(challenge.challengeId, .emailOTP, try lastCode(sentTo: email))
        #expect(proof.status == 200, "\(proof.problem?.code.rawValue ?? "")")
        return try proof.decode(ProofResponse.self)
    }
}
