import Foundation
import SCACore
import SCAEngine
import SCAStorage
import Synchronization
import Testing

/// Sign up or in with a phone number and its SMS code (`signUp` `phone`), through the
/// routes against the real store.
@Suite("Sign up or in by phone")
struct SignUpPhoneTests {
    static func phoneOn(_ configuration: inout ServerConfiguration) {
        configuration.signUp.mode = .phone
    }

    @Test("new phone → SMS code → enrolment → password → full SCA with password and SMS code; then a known phone signs in")
    func newPhoneEnrolsThenSignsInWithSCA() async throws {
        try await TestServer(Self.phoneOn).run { api in
            // Typed with spaces and dashes, normalized to E.164.
            let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(phone: "+33 6 12-34 56 78")))
            #expect(challenge.methods.map(\.id).contains(.smsOTP))
            let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(sent.status == 202)
            #expect(try sent.decode(CodeSentResponse.self).sentTo.hasSuffix("78"))
            let proof = try await api.prove(challenge.challengeId, .smsOTP, try api.lastCode(sentTo: "+33612345678"))
            #expect(proof.status == 200)
            let enrolment = try proof.decode(ProofResponse.self)
            #expect(enrolment.status == .enrolment)
            #expect(enrolment.acr == "single-factor")
            let token = try #require(enrolment.accessToken)
            let claims = try jwtClaims(token)
            #expect(claims["op"] as? String == "enrolment")
            #expect(claims["amr"] as? [String] == ["sms_otp"])
            let user = try #require(try await api.services.store.user(loginPhone: "+33612345678"))
            #expect(claims["sub"] as? String == user.id)
            #expect(user.phone == "+33612345678")
            #expect(user.email == "33612345678@phone.invalid")
            #expect(user.enrolledMethods == [.smsOTP])

            let added = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase")))
            #expect(added.status == 200)
            #expect(try added.decode(EnrolmentResponse.self).methods == [.password, .smsOTP])

            // The known phone now: a normal login, both categories, nothing created.
            let login = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(phone: "+33612345678")))
            #expect(login.requiredCategories == 2)
            #expect(try await api.sendCode(login.challengeId, .smsOTP).status == 202)
            let first = try await api.prove(login.challengeId, .smsOTP, try api.lastCode(sentTo: "+33612345678"))
                .decode(ProofResponse.self)
            #expect(first.status == .partial)
            #expect(first.accessToken == nil)
            let done = try await api.prove(login.challengeId, .password, "a new long passphrase").decode(ProofResponse.self)
            #expect(done.status == .complete)
            #expect(done.acr == "psd2.sca")
            #expect(try jwtClaims(try #require(done.accessToken))["sub"] as? String == user.id)
            #expect(try await api.services.users.list().count == 1)
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft.event)
            #expect(events.filter { $0 == "signup.user_created" }.count == 1)
        }
    }

    @Test("sign-up by phone off (or e-mail only): the same answers as on, no SMS sent, nothing created")
    func noOracle() async throws {
        func answers(_ customize: @escaping (inout ServerConfiguration) -> Void) async throws -> [String] {
            try await SignUpTests.signUpAnswers(SignUpOrInRequest(phone: "+447700900123"), code: .smsOTP, to: "+447700900123", customize)
        }
        let on = try await answers(Self.phoneOn)
        let off = try await answers { _ in }
        let emailOnly = try await answers { $0.signUp.mode = .email }
        #expect(on.dropLast(2) == off.dropLast(2))
        #expect(on.dropLast(2) == emailOnly.dropLast(2))
        // The mask is the typed number's, as a known user's would be.
        #expect(on[4].hasSuffix("23"))
        #expect(on.suffix(2) == ["delivered:true", "users:0"])
        #expect(off.suffix(2) == ["delivered:false", "users:0"])
        #expect(emailOnly.suffix(2) == ["delivered:false", "users:0"])
    }

    @Test("a known phone's challenge shows the same mask as a new one's")
    func knownAndNewShowTheSameMask() async throws {
        try await TestServer(Self.phoneOn).run { api in
            let enrolment = try await api.signUpByPhone("+447700900123")
            let token = try #require(enrolment.accessToken)
            _ = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase")))
            var masks: [String] = []
            for phone in ["+447700900123", "+447700900124"] {
                let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(phone: phone)))
                #expect(challenge.requiredCategories == 2)
                masks.append(try await api.sendCode(challenge.challengeId, .smsOTP).decode(CodeSentResponse.self).sentTo)
            }
            #expect(masks[0].dropLast(2) == masks[1].dropLast(2))
            #expect(masks[0].hasSuffix("23"))
            #expect(masks[1].hasSuffix("24"))
        }
    }

    @Test("bad input: neither or both of email and phone, or a number not in E.164, is refused and changes nothing")
    func badInput() async throws {
        try await TestServer { $0.signUp.mode = .emailAndPhone }.run { api in
            for request in [
                SignUpOrInRequest(), SignUpOrInRequest(email: "a@example.com", phone: "+33612345678"),
                SignUpOrInRequest(phone: "0612345678"), SignUpOrInRequest(phone: "+0612345678"), SignUpOrInRequest(phone: "+33 6 12 ab"),
                SignUpOrInRequest(phone: "+1234"), SignUpOrInRequest(phone: "+1234567890123456"), SignUpOrInRequest(phone: ""),
            ] {
                let refused = try await api.post("/v1/signup-or-in", request)
                #expect(refused.status == 400, "\(request)")
                #expect(refused.problem?.code == .requestInvalid, "\(request)")
            }
            // An operator cannot take a number's placeholder e-mail before its owner signs up.
            let reserved = try await api.post(
                "/admin/v1/users", CreateUserRequest(email: "33612345678@Phone.Invalid", password: "a long passphrase"), admin: true)
            #expect(reserved.status == 400)
            #expect(reserved.problem?.code == .requestInvalid)
            #expect(try await api.services.users.list().isEmpty)
            #expect(try api.services.outbox?.messages().isEmpty == true)
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft.event)
            #expect(!events.contains("challenge.created"))
            // Both on: each kind of address still works.
            #expect(try await api.signUpByPhone("+33612345678").status == .enrolment)
            #expect(try await api.signUp("new@example.com").status == .enrolment)
        }
    }

    @Test("signUp accepts phone and email,phone; both need their code among methods.login")
    func configuration() throws {
        let loader = ConfigurationLoader()
        #expect(try loader.load(file: nil, environment: [:], flags: ["signUp": "phone"]).signUp.mode == .phone)
        let both = try loader.load(file: nil, environment: ["SCA_SIGN_UP": "email,phone"], flags: [:]).signUp.mode
        #expect(both == .emailAndPhone)
        #expect(both.allowsEmail && both.allowsPhone)
        #expect(!SignUpMode.phone.allowsEmail)
        for flags in [["signUp": "phone", "methods.login": "password,email_otp"], ["signUp": "email,phone", "methods.login": "password,email_otp"]] {
            #expect(throws: ConfigurationError.self, "\(flags)") { try loader.load(file: nil, environment: [:], flags: flags) }
        }
    }

    @Test("20 parallel sign-ups of one phone create exactly one user (SQLite)")
    func parallelSignUpsSQLite() async throws {
        try await TestServer(Self.parallelSettings).run { api in try await Self.parallelSignUps(api) }
    }

    @Test(
        "20 parallel sign-ups of one phone create exactly one user (PostgreSQL)",
        .enabled(if: ServerPair.databaseURL != nil, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func parallelSignUpsPostgres() async throws {
        try await TestServer.runOnPostgres(Self.parallelSettings) { api in try await Self.parallelSignUps(api) }
    }

    static func parallelSettings(_ configuration: inout ServerConfiguration) {
        phoneOn(&configuration)
        configuration.rateLimits.sendsPerDestination = []
        configuration.rateLimits.sendsPerUser = []
    }

    /// Twenty challenges for one new number, each with its code, proven all at once.
    static func parallelSignUps(_ api: APIClient) async throws {
        let phone = "+14155550123"
        var pending: [(challengeID: String, code: String)] = []
        for _ in 0..<20 {
            let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(phone: phone)))
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            pending.append((challenge.challengeId, try api.lastCode(sentTo: phone)))
        }
        let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
            for (challengeID, code) in pending { group.addTask { try await api.prove(challengeID, .smsOTP, code) } }
            var all: [APIResponse] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        let users = try await api.services.users.list().filter { $0.phone == phone }
        #expect(users.count == 1)
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
    /// signup-or-in by phone, the SMS code sent and proven; returns the proof's answer.
    func signUpByPhone(_ phone: String) async throws -> ProofResponse {
        let challenge = try decodeSignUp(try await post("/v1/signup-or-in", SignUpOrInRequest(phone: phone)))
        #expect(try await sendCode(challenge.challengeId, .smsOTP).status == 202)
        let proof = try await prove(challenge.challengeId, .smsOTP, try lastCode(sentTo: phone))
        #expect(proof.status == 200, "\(proof.problem?.code.rawValue ?? "")")
        return try proof.decode(ProofResponse.self)
    }
}
