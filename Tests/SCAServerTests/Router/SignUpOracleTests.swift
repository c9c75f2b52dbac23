import Foundation
import SCACore
import SCAEngine
import Synchronization
import Testing

/// `POST /v1/signup-or-in` tells nobody whether an address is known: a known user
/// (whatever they enrolled), a new address and sign-up off get the same answers until the
/// code is proven, through the real routes against the real store.
@Suite("Sign-up or in is no oracle")
struct SignUpOracleTests {
    /// All typed alike, so their masks are alike too (`a****@example.com`).
    static let withCodes = "ann@example.com"
    static let withoutCodes = "amy@example.com"
    static let withTOTP = "ava@example.com"
    static let new = "abe@example.com"

    /// The three known users: e-mail codes on; off (password and SMS only); a PIN and TOTP with codes.
    static func seed(_ api: APIClient) async throws {
        _ = try await api.createUser(withCodes, emailCodes: true)
        _ = try await api.createUser(withoutCodes, phone: "+33612345678", emailCodes: false)
        let totpUser = try await api.createUser(withTOTP, password: nil, pin: "482913", emailCodes: true)
        _ = try await api.enrollTOTP(totpUser)
    }

    /// What a client sees for `email` before proving anything: the challenge (status, headers,
    /// body), the code request and a guessed code, ids and nonces blanked.
    static func answers(_ api: APIClient, _ email: String) async throws -> [String] {
        let opened = try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: email))
        let challenge = try opened.decode(ChallengeResponse.self)
        let blank = { (text: String) in
            text.replacingOccurrences(of: challenge.challengeId, with: "<id>").replacingOccurrences(of: challenge.nonce, with: "<nonce>")
        }
        let headers = opened.headers.map { "\($0.name.canonicalName): \(blank($0.value))" }.sorted()
        let fetched = try await api.send(.get, "/v1/challenges/\(challenge.challengeId)")
        let sent = try await api.sendCode(challenge.challengeId, .emailOTP)
        // Proving another method first is refused alike (nothing but the code is offered).
        let early = try await api.prove(challenge.challengeId, .password, "correct horse battery")
        let code = try api.outbox().last { $0.to == email }.map { String($0.text.prefix(6)) } ?? ""
        let guess = try await api.prove(challenge.challengeId, .emailOTP, code == "000000" ? "000001" : "000000")
        return [
            "\(opened.status)", blank(String(decoding: opened.body, as: UTF8.self)), headers.joined(separator: "\n"),
            "\(fetched.status)", blank(String(decoding: fetched.body, as: UTF8.self)),
            "\(sent.status)", String(decoding: sent.body, as: UTF8.self),
            "\(early.status)", String(decoding: early.body, as: UTF8.self),
            "\(guess.status)", String(decoding: guess.body, as: UTF8.self),
        ]
    }

    @Test("known with e-mail codes, known without, known with TOTP, new, and sign-up off: the same answers field by field")
    func sameAnswers() async throws {
        let seen = Mutex<[String: [String]]>([:])
        for (label, customize) in [
            ("on", { (configuration: inout ServerConfiguration) in configuration.signUp.mode = .email }),
            ("off", { (_: inout ServerConfiguration) in }),
        ] {
            try await TestServer(customize).run { api in
                try await Self.seed(api)
                for email in [Self.withCodes, Self.withoutCodes, Self.withTOTP, Self.new] {
                    let answers = try await Self.answers(api, email)
                    seen.withLock { $0["\(label) \(email)"] = answers }
                }
            }
        }
        let all = seen.withLock { $0 }
        let reference = try #require(all["on \(Self.new)"])
        #expect(reference[0] == "201")
        let offered = try WireJSON.decoder().decode(ChallengeResponse.self, from: Data(reference[1].utf8))
        #expect(offered.methods.map(\.id) == [.emailOTP])
        #expect(offered.requiredCategories == 2)
        #expect(reference[5] == "202")
        #expect(reference[7] == "422")
        #expect(reference[9] == "401")
        for (label, answers) in all {
            for (index, answer) in answers.enumerated() {
                #expect(answer == reference[index], "\(label), answer \(index)")
            }
        }
    }

    @Test("a known user proves the code, then sees their methods and completes a full SCA login")
    func knownUserProvesCodeThenSCA() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            try await Self.seed(api)
            let users = try await api.services.users.list()
            let userID = try #require(users.first { $0.email == Self.withTOTP }).id
            // The TOTP generator, enrolled again so the test holds its secret.
            let totp = try await api.enrollTOTP(userID)
            let challenge = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: Self.withTOTP)))
            #expect(challenge.methods.map(\.id) == [.emailOTP])
            #expect(try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).problem?.code == .methodNotOffered)
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            let proven = try await api.prove(challenge.challengeId, .emailOTP, try api.lastCode(sentTo: Self.withTOTP))
            #expect(proven.status == 200)
            let partial = try proven.decode(ProofResponse.self)
            #expect(partial.status == .partial)
            #expect(partial.satisfiedCategories == [.possession])
            #expect(partial.methods?.map(\.id) == [.pin, .totp, .emailOTP])
            // The challenge describes the same now.
            let described = try await api.send(.get, "/v1/challenges/\(challenge.challengeId)").decode(ChallengeResponse.self)
            #expect(described.methods.map(\.id) == [.pin, .totp, .emailOTP])
            // A second possession element is no SCA; the PIN is.
            let possession = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self)
            #expect(possession.status == .partial)
            let done = try await api.prove(challenge.challengeId, .pin, "482913").decode(ProofResponse.self)
            #expect(done.status == .complete)
            #expect(done.acr == "psd2.sca")
            #expect(done.amr == [.emailOTP, .totp, .pin])
            #expect(try jwtClaims(try #require(done.accessToken))["sub"] as? String == userID)
        }
    }

    @Test("a known user whose e-mail codes are off gets a notice and no code; a guessed code fails as a decoy's")
    func knownWithoutCodesGetsNotice() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            try await Self.seed(api)
            // What the seeding sent (security alerts of the TOTP enrolments) is not the attempt's.
            let seeded = try #require(try api.services.outbox?.messages()).count
            let known = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: Self.withoutCodes)))
            #expect(try await api.sendCode(known.challengeId, .emailOTP).status == 202)
            let messages = Array(try #require(try api.services.outbox?.messages()).dropFirst(seeded))
            #expect(messages.count == 1)
            let notice = try #require(messages.first)
            #expect(notice.to == Self.withoutCodes)
            #expect(notice.channel == .email)
            #expect(notice.text.contains("You already have an account"))
            let digits = notice.text.filter(\.isNumber)
            #expect(digits.isEmpty, "no code in a notice")
            // The resend rule bites as for a code.
            #expect(try await api.sendCode(known.challengeId, .emailOTP).problem?.code == .otpResendTooSoon)

            // Sign-up off elsewhere: an unknown address's decoy, guessed the same way.
            let decoyGuess = Mutex<APIResponse?>(nil)
            try await TestServer().run { other in
                let decoy = try other.decodeSignUp(try await other.post("/v1/signup-or-in", SignUpOrInRequest(email: Self.new)))
                _ = try await other.sendCode(decoy.challengeId, .emailOTP)
                let guess = try await other.prove(decoy.challengeId, .emailOTP, "123456")
                decoyGuess.withLock { $0 = guess }
            }
            let guess = try await api.prove(known.challengeId, .emailOTP, "123456")
            let reference = try #require(decoyGuess.withLock { $0 })
            #expect(guess.status == 401)
            #expect(guess.status == reference.status)
            #expect(guess.body == reference.body)
            #expect(guess.problem?.code == .proofRejected)
            // Nothing was created, and the user is as they were.
            #expect(try await api.services.users.list().count == 3)
            let user = try #require(try await api.services.users.find(Self.withoutCodes))
            #expect(user.enrolledMethods == [.password, .smsOTP])
        }
    }

    @Test("by phone: a known number whose SMS would go elsewhere gets a notice by SMS, and the same answers as a new number")
    func knownPhoneWithoutCountingCodeGetsNotice() async throws {
        try await TestServer { $0.signUp.mode = .phone }.run { api in
            // Signed up by phone, then their SMS number moved to another one.
            let token = try #require(try await api.signUpByPhone("+447700900123").accessToken)
            _ = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase")))
            let user = try #require(try await api.services.store.user(loginPhone: "+447700900123"))
            let moved = try await api.send(
                .patch, "/admin/v1/users/\(user.id)", body: try WireJSON.encoder().encode(UpdateUserRequest(phone: "+447700900999")),
                admin: true)
            #expect(moved.status == 200)
            let before = try api.services.outbox?.messages().count ?? 0

            var answers: [[String]] = []
            for phone in ["+447700900123", "+447700900124"] {
                let opened = try await api.post("/v1/signup-or-in", SignUpOrInRequest(phone: phone))
                var challenge = try opened.decode(ChallengeResponse.self)
                let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
                let guess = try await api.prove(challenge.challengeId, .smsOTP, "123456")
                let mask = try sent.decode(CodeSentResponse.self).sentTo
                challenge.challengeId = ""
                challenge.nonce = ""
                answers.append([
                    "\(opened.status)", "\(challenge)", "\(sent.status)", String(mask.dropLast(2)), "\(guess.status)",
                    String(decoding: guess.body, as: UTF8.self),
                ])
            }
            #expect(answers[0] == answers[1])
            #expect(answers[0][0] == "201")
            let messages = try #require(try api.services.outbox?.messages()).dropFirst(before)
            // The known number got a notice (not a code); the new one its sign-up code.
            let notice = try #require(messages.first { $0.to == "+447700900123" })
            #expect(notice.channel == .sms)
            #expect(notice.text.contains("You already have one"))
            #expect(!messages.contains { $0.to == "+447700900999" })
            #expect(messages.contains { $0.to == "+447700900124" })
        }
    }
}
