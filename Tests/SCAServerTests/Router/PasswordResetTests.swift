import Foundation
import SCACore
import SCAEngine
import SCATestSupport
import Testing

/// A forgotten password, through the real routes: the reset is proven without knowledge, and
/// each row of the decision table is a test. Two categories other than knowledge (a device's
/// key and biometry, a user-verified passkey) or a code with the recovery sheet reset in full;
/// one element alone leaves the account restricted until an operator lifts it after the
/// cooling-off. Every session ends and the user is alerted either way.
@Suite("Password reset")
struct PasswordResetTests {
    static let newPassword = "a brand new passphrase"

    static func resetChallenge(
        _ api: APIClient, user: UserReference, device: TestDevice? = nil, hint: AuthenticationMethod?
    ) async throws -> ChallengeResponse {
        let response = try await api.post(
            "/v1/challenges",
            CreateChallengeRequest(
                operation: .passwordReset, user: user, device: device.map { DeviceReference(deviceId: $0.deviceID) },
                methodHint: hint))
        #expect(response.status == 201, "\(response.problem?.detail ?? "")")
        return try response.decode(ChallengeResponse.self)
    }

    /// A `password_reset` token proven with an e-mail code alone.
    static func codeToken(_ api: APIClient, email: String) async throws -> String {
        let challenge = try await resetChallenge(api, user: UserReference(email: email), hint: .emailOTP)
        #expect(challenge.requiredCategories == 1)
        #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
        let done = try await api.prove(challenge.challengeId, .emailOTP, try api.lastCode(sentTo: email))
        #expect(done.status == 200, "\(done.problem?.detail ?? "")")
        return try #require(try done.decode(ProofResponse.self).accessToken)
    }

    /// A `password_reset` token proven with `device`'s key and biometry.
    static func deviceToken(_ api: APIClient, userID: String, device: TestDevice) async throws -> String {
        let challenge = try await resetChallenge(api, user: UserReference(userId: userID), device: device, hint: .deviceKey)
        #expect(challenge.requiredCategories == 2)
        #expect(Set(challenge.methods.map(\.id)) == [.deviceKey, .biometricKey])
        #expect(try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge)).status == 200)
        let done = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
        #expect(done.status == 200, "\(done.problem?.detail ?? "")")
        return try #require(try done.decode(ProofResponse.self).accessToken)
    }

    static func reset(
        _ api: APIClient, token: String, password: String = newPassword, code: String? = nil, puk: String? = nil
    ) async throws -> APIResponse {
        try await api.bearer(
            .post, "/v1/password-reset", token: token,
            body: try JSONEncoder().encode(PasswordResetRequest(password: password, recoveryCode: code, puk: puk)))
    }

    /// Whether a password + TOTP sign-in with `password` completes.
    static func signsIn(_ api: APIClient, _ email: String, password: String, totp: TOTP) async throws -> Bool {
        api.clock.advance(by: 30)  // a TOTP step is accepted once
        let challenge = try await api.startChallenge(email: email)
        _ = try await api.prove(challenge.challengeId, .password, password)
        let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
        return done.status == 200 && (try? done.decode(ProofResponse.self).accessToken) != nil
    }

    static func payment(_ api: APIClient, email: String) async throws -> APIResponse {
        try await api.post(
            "/v1/challenges",
            CreateChallengeRequest(
                operation: .payment, user: UserReference(email: email),
                transaction: Transaction(amount: "12.00", currency: "EUR", payee: .init(name: "Bakery", iban: "DE89370400440532013000"))))
    }

    @Test("a bound device's key and biometry reset in full: sessions end, the old password is gone, the user is alerted")
    func deviceResetIsComplete() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("dev@example.com")
            let totp = try await api.enrollTOTP(userID)
            var phone = TestDevice()
            try await api.activate(&phone, userID: userID)
            let session = try #require(try await api.logIn("dev@example.com", totp: totp).accessToken)

            let answer = try await Self.reset(api, token: try await Self.deviceToken(api, userID: userID, device: phone))

            #expect(answer.status == 200, "\(answer.problem?.detail ?? "")")
            let reset = try answer.decode(PasswordResetResponse.self)
            #expect(reset.outcome == .complete && reset.restrictedUntil == nil && reset.sessionsEnded >= 1)
            #expect(try await api.bearer(.get, "/v1/me", token: session).status == 401)
            #expect(try await Self.signsIn(api, "dev@example.com", password: Self.newPassword, totp: totp))
            #expect(try await !Self.signsIn(api, "dev@example.com", password: "correct horse battery", totp: totp))
            #expect(try await Self.payment(api, email: "dev@example.com").status == 201)
            #expect(try RecoveryTests.messages(api, to: "dev@example.com").contains { $0.contains("was reset on") })
            let recorded = try await RecoveryTests.events(api, "password.reset")
            #expect(recorded.map(\.draft.outcome) == ["complete"])
            #expect(recorded.first?.draft.details["methods"] == "device_key biometric_key")
        }
    }

    @Test("a user-verified passkey resets in full with one assertion")
    func passkeyResetIsComplete() async throws {
        try await TestServer(PasskeyRegistrationTests.configure).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await PasskeyRegistrationTests.enrolled(api, "pk@example.com", authenticator)
            let challenge = try await Self.resetChallenge(api, user: UserReference(email: "pk@example.com"), hint: .passkey)
            #expect(challenge.methods.map(\.id) == [.passkey])
            #expect(challenge.requiredCategories == 2)
            let done = try await PasskeyProofTests.prove(
                api, challenge.challengeId, authenticator.assert(challenge: try PasskeyProofTests.options(challenge).challenge))
            let token = try #require(try done.decode(ProofResponse.self).accessToken)

            let reset = try await Self.reset(api, token: token).decode(PasswordResetResponse.self)

            #expect(reset.outcome == .complete)
        }
    }

    @Test("an e-mail code alone restricts: sign-in works, payments and changes are refused until an operator lifts it after the cooling-off")
    func codeResetIsRestricted() async throws {
        try await TestServer().run { api in
            let account = try await RecoveryTests.account(api, email: "weak@example.com")
            let started = api.clock.now()

            let answer = try await Self.reset(api, token: try await Self.codeToken(api, email: "weak@example.com"))

            #expect(answer.status == 200, "\(answer.problem?.detail ?? "")")
            let reset = try answer.decode(PasswordResetResponse.self)
            #expect(reset.outcome == .restricted)
            let until = try #require(reset.restrictedUntil)
            #expect(until.timeIntervalSince(started) >= 86_400 && until.timeIntervalSince(started) < 86_400 + 60)
            #expect(try RecoveryTests.messages(api, to: "weak@example.com").contains { $0.contains("with a single proof") })
            // The new password signs in; money and changes wait.
            #expect(try await Self.signsIn(api, "weak@example.com", password: Self.newPassword, totp: account.totp))
            api.clock.advance(by: 30)  // a TOTP step is accepted once
            let session = try #require(try await api.logIn("weak@example.com", password: Self.newPassword, totp: account.totp).accessToken)
            #expect(try await api.bearer(.get, "/v1/me", token: session).decode(ProfileResponse.self).restrictedUntil == until)
            let payment = try await Self.payment(api, email: "weak@example.com")
            #expect(payment.status == 403 && payment.problem?.code == .userRestricted)
            for operation in [OperationKind.settingsChange, .deviceActivation] {
                let refused = try await api.post(
                    "/v1/challenges", CreateChallengeRequest(operation: operation, user: UserReference(email: "weak@example.com")))
                #expect(refused.status == 403 && refused.problem?.code == .userRestricted, "\(operation)")
            }
            let removal = try await api.bearer(.delete, "/v1/devices/\(account.phone.deviceID)", token: session)
            #expect(removal.status == 403 && removal.problem?.code == .userRestricted)
            #expect(try await api.services.store.device(id: account.phone.deviceID)?.status == .active)
            let recovery = try await api.post(
                "/v1/recovery", try RecoveryTests.recovery(
                    TestDevice(), code: account.sheet.recoveryCode, puk: account.sheet.puks[0], password: Self.newPassword))
            #expect(recovery.status == 403 && recovery.problem?.code == .userRestricted)
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.usedPUKs == 0)

            // The operator: not before the cooling-off ends, then once.
            let path = "/admin/v1/users/\(account.userID)/restriction"
            let early = try await api.send(.delete, path, admin: true)
            #expect(early.status == 409 && early.problem?.code == .restrictionCoolingOff && early.problem?.retryAfter != nil)
            let described = try await api.send(.get, "/admin/v1/users/\(account.userID)", admin: true).decode(UserResponse.self)
            #expect(described.restrictedUntil == until)
            api.clock.advance(by: 86_400)
            #expect(try await api.send(.delete, path, admin: true).status == 200)
            #expect(try await api.send(.delete, path, admin: true).status == 404)
            #expect(try await Self.payment(api, email: "weak@example.com").status == 201)
            #expect(try RecoveryTests.messages(api, to: "weak@example.com").contains { $0.contains("lifted the hold") })
            #expect(try await RecoveryTests.events(api, "user.restriction_lifted").count == 1)
        }
    }

    @Test("an e-mail code with the recovery sheet's code and next PUK resets in full and spends the PUK")
    func codeAndSheetResetIsComplete() async throws {
        try await TestServer().run { api in
            let account = try await RecoveryTests.account(api, email: "sheet@example.com")
            let token = try await Self.codeToken(api, email: "sheet@example.com")

            let answer = try await Self.reset(api, token: token, code: account.sheet.recoveryCode, puk: account.sheet.puks[0])

            #expect(answer.status == 200, "\(answer.problem?.detail ?? "")")
            let reset = try answer.decode(PasswordResetResponse.self)
            #expect(reset.outcome == .complete && reset.puksLeft == 9)
            #expect(try await api.services.store.user(id: account.userID)?.isRestricted == false)
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.usedPUKs == 1)
            // The same PUK with a new code token is spent.
            let again = try await Self.reset(
                api, token: try await Self.codeToken(api, email: "sheet@example.com"), code: account.sheet.recoveryCode,
                puk: account.sheet.puks[0])
            #expect(again.status == 400 && again.problem?.code == .recoveryFailed)
        }
    }

    @Test("wrong PUKs count on the sheet: five lock it, and the password never changes")
    func wrongPUKsLockTheSheet() async throws {
        try await TestServer().run { api in
            let account = try await RecoveryTests.account(api, email: "guess@example.com")
            let token = try await Self.codeToken(api, email: "guess@example.com")
            var codes: [ProblemCode?] = []
            for guess in 0..<5 {
                let wrong = try await Self.reset(api, token: token, code: account.sheet.recoveryCode, puk: "00000-0000\(guess)")
                codes.append(wrong.problem?.code)
            }
            #expect(codes.prefix(4).allSatisfy { $0 == .recoveryFailed })
            #expect(codes.last == .recoveryLocked)
            let right = try await Self.reset(api, token: token, code: account.sheet.recoveryCode, puk: account.sheet.puks[0])
            #expect(right.status == 423 && right.problem?.code == .recoveryLocked)
            #expect(try await Self.signsIn(api, "guess@example.com", password: "correct horse battery", totp: account.totp))
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.usedPUKs == 0)
        }
    }

    @Test("refused before anything is used: bad input, a sheet where it cannot count, another operation's token, a used token")
    func refusalsChangeNothing() async throws {
        try await TestServer().run { api in
            let account = try await RecoveryTests.account(api, email: "bad@example.com")
            // Knowledge is never offered for a reset.
            let challenge = try await Self.resetChallenge(api, user: UserReference(email: "bad@example.com"), hint: nil)
            #expect(!challenge.methods.contains { $0.category == .knowledge })
            let knowledge = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(knowledge.status == 422 && knowledge.problem?.code == .methodNotOffered)

            let token = try await Self.deviceToken(api, userID: account.userID, device: account.phone)
            #expect(try await Self.reset(api, token: token, password: "short").problem?.code == .requestInvalid)
            #expect(try await Self.reset(api, token: token, code: account.sheet.recoveryCode).problem?.code == .requestInvalid)
            // A complete reset never burns a PUK it does not need.
            let needless = try await Self.reset(api, token: token, code: account.sheet.recoveryCode, puk: account.sheet.puks[0])
            #expect(needless.status == 400 && needless.problem?.code == .requestInvalid)
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.usedPUKs == 0)
            api.clock.advance(by: 30)  // a TOTP step is accepted once
            let login = try #require(try await api.logIn("bad@example.com", totp: account.totp).accessToken)
            let wrongOperation = try await Self.reset(api, token: login)
            #expect(wrongOperation.status == 403 && wrongOperation.problem?.code == .forbidden)
            #expect(try await Self.signsIn(api, "bad@example.com", password: "correct horse battery", totp: account.totp))
            // The token survived every refusal, and works once.
            #expect(try await Self.reset(api, token: token).status == 200)
            #expect(try await Self.reset(api, token: token).status == 401)
            #expect(try await api.send(.post, "/v1/password-reset", body: Data(#"{"password":"long enough one"}"#.utf8)).status == 401)
        }
    }

    @Test("a restricted account lets no partner in: the hosted sign-in says why and opens no challenge")
    func restrictedAccountSignsInToNoPartner() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("held@example.com", phone: "+41790000009")
            let reset = try await Self.reset(api, token: try await Self.codeToken(api, email: "held@example.com"))
            #expect(try reset.decode(PasswordResetResponse.self).outcome == .restricted)
            let challengesBefore = try await RecoveryTests.events(api, "challenge.created").count

            let partner = try await PartnerFixture.make(api)
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: PartnerFixture.pkce().challenge))
            #expect(start.status == 200)
            try await browser.submit(start, action: "/signin/email", ["email": "held@example.com"])
            let page = String(decoding: try await browser.get("/signin").body, as: UTF8.self)

            #expect(page.contains("payments and changes wait until your bank lifts the restriction"))
            #expect(try await RecoveryTests.events(api, "challenge.created").count == challengesBefore)
            // The bank's own sign-in still works.
            let own = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: "held@example.com")))
            #expect(own.status == 201)
        }
    }

    @Test("a complete reset lifts an earlier restriction")
    func completeResetLiftsRestriction() async throws {
        try await TestServer().run { api in
            let account = try await RecoveryTests.account(api, email: "back@example.com")
            #expect(try await Self.reset(api, token: try await Self.codeToken(api, email: "back@example.com"))
                .decode(PasswordResetResponse.self).outcome == .restricted)
            // A password-reset challenge stays open to a restricted account: the way back.
            let full = try await Self.reset(api, token: try await Self.deviceToken(api, userID: account.userID, device: account.phone))
            #expect(try full.decode(PasswordResetResponse.self).outcome == .complete)
            #expect(try await api.services.store.user(id: account.userID)?.isRestricted == false)
            #expect(try await Self.payment(api, email: "back@example.com").status == 201)
        }
    }

    @Test("the reset's policy takes no knowledge element, and the cooling-off is configurable")
    func configuration() throws {
        let loader = ConfigurationLoader()
        for flags in [
            ["methods.password_reset": "password,email_otp"], ["requiredCategories.password_reset": "3"],
            ["passwordResetCoolingOff": "0"],
        ] {
            #expect(throws: ConfigurationError.self, "\(flags)") { try loader.load(file: nil, environment: [:], flags: flags) }
        }
        let configured = try loader.load(file: nil, environment: ["SCA_PASSWORD_RESET_COOLING_OFF": "3600"], flags: [:])
        #expect(configured.passwordResetCoolingOff == 3_600)
        #expect(ServerConfiguration().passwordResetCoolingOff == 86_400)
        #expect(!ServerConfiguration().policy(for: .passwordReset).methods.contains { $0.category == .knowledge })
    }
}
