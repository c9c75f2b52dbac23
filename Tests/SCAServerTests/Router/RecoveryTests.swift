import Crypto
import Foundation
import SCACore
import Testing

/// The way back in after a lost phone: a recovery sheet, issued with its own SCA, binds a new
/// device with the password or PIN. Every other device is removed, every session ended, and
/// the user alerted on every channel; failures count on the sheet's own lockout.
@Suite("Recovery sheets")
struct RecoveryTests {
    static let password = "correct horse battery"

    /// A `settings_change` token: password and TOTP on a new challenge.
    static func settingsToken(_ api: APIClient, email: String, totp: TOTP) async throws -> String {
        api.clock.advance(by: 30)  // a TOTP step is accepted once
        let challenge = try await api.startChallenge(.settingsChange, email: email)
        #expect(try await api.prove(challenge.challengeId, .password, password).status == 200)
        let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
        return try #require(try done.decode(ProofResponse.self).accessToken)
    }

    /// A user with a password and TOTP, a bound phone, and a recovery sheet.
    struct Account {
        var userID: String
        var totp: TOTP
        var phone: TestDevice
        var sheet: RecoverySheetResponse
    }

    static func account(_ api: APIClient, email: String, phone number: String? = nil) async throws -> Account {
        let userID = try await api.createUser(email, phone: number)
        let totp = try await api.enrollTOTP(userID)
        var phone = TestDevice()
        try await api.activate(&phone, userID: userID)
        let issued = try await api.bearer(.post, "/v1/me/recovery-sheet", token: try await settingsToken(api, email: email, totp: totp))
        #expect(issued.status == 201)
        return Account(userID: userID, totp: totp, phone: phone, sheet: try issued.decode(RecoverySheetResponse.self))
    }

    /// A recovery request signed by `device`'s new possession key over the code and the PUK.
    static func recovery(
        _ device: TestDevice, code: String, puk: String, password: String? = RecoveryTests.password, pin: String? = nil,
        name: String = "New phone"
    ) throws -> RecoveryRequest {
        let proof = try device.possessionKey.signature(
            for: DeviceSignature.recoveryPayload(code: try #require(ActivationCode(code)), puk: try #require(RecoveryPUK(puk))))
        return RecoveryRequest(
            recoveryCode: code, puk: puk, password: password, pin: pin, name: name, platform: "test",
            possessionKey: Base64URL.encode(device.possessionKey.publicKey.x963Representation),
            biometryKey: Base64URL.encode(device.biometryKey.publicKey.x963Representation),
            proof: Base64URL.encode(proof.rawRepresentation))
    }

    static func events(_ api: APIClient, _ name: String) async throws -> [AuditEntry] {
        try await api.services.store.auditEntries(after: 0, limit: 10_000).filter { $0.draft.event == name }
    }

    static func messages(_ api: APIClient, to address: String) throws -> [String] {
        try #require(api.services.outbox).messages().filter { $0.to == address }.map(\.text)
    }

    @Test("a sheet binds a new phone: the lost one is removed, sessions end, the user is alerted, the PUK is spent")
    func recoveryBindsANewPhone() async throws {
        try await TestServer().run { api in
            let account = try await Self.account(api, email: "lost@example.com", phone: "+41791110000")
            #expect(account.sheet.puks.count == 10)
            #expect(Set(account.sheet.puks).count == 10)
            api.clock.advance(by: 30)  // a TOTP step is accepted once
            let session = try #require(try await api.logIn("lost@example.com", totp: account.totp).accessToken)

            let answer = try await api.post(
                "/v1/recovery", try Self.recovery(TestDevice(), code: account.sheet.recoveryCode, puk: account.sheet.puks[0]))

            #expect(answer.status == 201, "\(answer.problem?.detail ?? "")")
            let recovered = try answer.decode(RecoveryResponse.self)
            #expect(recovered.userId == account.userID)
            #expect(recovered.devicesRemoved == 1)
            #expect(recovered.sessionsEnded >= 1)
            #expect(recovered.puksLeft == 9)
            // The lost phone can no longer start a sign-in, and the session's tokens are dead.
            let status = try await api.send(.get, "/v1/devices/\(account.phone.deviceID)/status")
            #expect(try status.decode(DeviceStatusResponse.self).status == .removed)
            let coldStart = try await api.startChallenge(.login, userID: account.userID, device: account.phone)
            #expect(coldStart.status >= 400)
            #expect(try await api.bearer(.get, "/v1/devices", token: session).status == 401)
            // The new phone signs in.
            var phone = TestDevice()
            phone.deviceID = recovered.deviceId
            let challenge = try await api.startChallenge(.login, userID: account.userID, device: phone)
            #expect(challenge.status == 201)
            // The alert went to the e-mail address and the phone number, naming the new device.
            for address in ["lost@example.com", "+41791110000"] {
                #expect(try Self.messages(api, to: address).contains { $0.contains("recovery sheet was used") && $0.contains("New phone") })
            }
            let completed = try #require(try await Self.events(api, "recovery.completed").first)
            #expect(completed.draft.userID == account.userID)
            #expect(completed.draft.deviceID == recovered.deviceId)
            // The status says one PUK is spent; the second is next.
            api.clock.advance(by: 30)  // a TOTP step is accepted once
            let token = try #require(try await api.logIn("lost@example.com", totp: account.totp).accessToken)
            let left = try await api.bearer(.get, "/v1/me/recovery-sheet", token: token).decode(RecoverySheetStatusResponse.self)
            #expect(left.puksLeft == 9)
            #expect(left.nextPUK == 2)
            #expect(!left.locked)
        }
    }

    @Test("a PUK works once; the next one works after it; a new sheet voids the old")
    func pukWorksOnce() async throws {
        try await TestServer().run { api in
            let account = try await Self.account(api, email: "once@example.com")
            let sheet = account.sheet
            #expect(try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0])).status == 201)

            let again = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0]))
            #expect(again.status == 400)
            #expect(again.problem?.code == .recoveryFailed)
            #expect(again.problem?.remainingAttempts == 4)
            let next = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[1]))
            #expect(next.status == 201)

            // A new sheet (its own SCA) replaces the old: the old code finds nothing.
            let renewed = try await api.bearer(
                .post, "/v1/me/recovery-sheet", token: try await Self.settingsToken(api, email: "once@example.com", totp: account.totp))
            #expect(renewed.status == 201)
            let old = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[2]))
            #expect(old.problem?.code == .recoveryFailed)
            #expect(try Self.messages(api, to: "once@example.com").contains { $0.contains("new recovery sheet was issued") })
        }
    }

    @Test("five wrong PUKs block recovery, also for the right PUK; the block grows, and the user hears before the permanent one")
    func wrongPUKsLockRecovery() async throws {
        try await TestServer().run { api in
            let account = try await Self.account(api, email: "guessed@example.com")
            let sheet = account.sheet
            let wrongPUK = sheet.puks[5]  // a real PUK, not the next one
            var remaining: [Int?] = []
            var statuses: [Int] = []
            for _ in 0..<5 {
                let answer = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: wrongPUK))
                remaining.append(answer.problem?.remainingAttempts)
                statuses.append(answer.status)
            }
            #expect(statuses == [400, 400, 400, 400, 423])
            #expect(remaining == [4, 3, 2, 1, 0])
            // Blocked: the right PUK is refused too, and nothing is bound.
            let right = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0]))
            #expect(right.status == 423)
            #expect(right.problem?.code == .recoveryLocked)
            #expect(try await api.services.store.devices(userID: account.userID).filter { $0.status == .active }.count == 1)
            // The sign-in's own counters are untouched: recovery has its own.
            #expect(try await api.services.store.user(id: account.userID)?.lockout.failedAttempts == 0)

            // Each further series blocks longer; before the permanent block the user is alerted.
            let policy = api.services.configuration.lockout
            for block in 1...policy.maxTemporaryBlocks {
                api.clock.advance(by: policy.blockDuration(forBlock: block) + 1)
                for _ in 0..<5 {
                    _ = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: wrongPUK))
                }
            }
            let alerts = try Self.messages(api, to: "guessed@example.com")
            #expect(alerts.contains { $0.contains("blocked until") })
            #expect(alerts.contains { $0.contains("was blocked on") })
            #expect(try await Self.events(api, "recovery.locked").map(\.draft.outcome).last == "permanent")
            api.clock.advance(by: 86_400 * 30)
            let late = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0]))
            #expect(late.problem?.code == .recoveryLocked)
        }
    }

    @Test("without the knowledge element recovery is refused and counted; without any, nothing is counted")
    func knowledgeIsRequired() async throws {
        try await TestServer().run { api in
            let account = try await Self.account(api, email: "knows@example.com")
            let sheet = account.sheet
            let wrong = try await api.post(
                "/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0], password: "not the password"))
            #expect(wrong.status == 400)
            #expect(wrong.problem?.code == .recoveryFailed)
            #expect(wrong.problem?.remainingAttempts == 4)
            // A PIN the user does not have fails the same way.
            let pin = try await api.post(
                "/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0], password: nil, pin: "482913"))
            #expect(pin.problem?.remainingAttempts == 3)
            // Neither element, or a bad proof, or a mistyped PUK: refused before anything is counted.
            let neither = try await api.post(
                "/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0], password: nil))
            #expect(neither.status == 400)
            #expect(neither.problem?.code == .requestInvalid)
            var forged = try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0])
            forged.proof = try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[1]).proof
            #expect(try await api.post("/v1/recovery", forged).problem?.code == .deviceProofInvalid)
            var mistyped = try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0])
            mistyped.puk = "12345"
            #expect(try await api.post("/v1/recovery", mistyped).problem?.remainingAttempts == nil)
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.lockout.failedAttempts == 2)
            #expect(try await api.services.store.devices(userID: account.userID).filter { $0.status == .active }.count == 1)
            // The right password still recovers, and the counters start again.
            let right = try await api.post("/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0]))
            #expect(right.status == 201)
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.lockout.failedAttempts == 0)
        }
    }

    @Test("a PIN serves as the knowledge element")
    func pinRecovers() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("pin@example.com", pin: "482913")
            let totp = try await api.enrollTOTP(userID)
            let issued = try await api.bearer(
                .post, "/v1/me/recovery-sheet", token: try await Self.settingsToken(api, email: "pin@example.com", totp: totp))
            let sheet = try issued.decode(RecoverySheetResponse.self)
            let answer = try await api.post(
                "/v1/recovery", try Self.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0], password: nil, pin: "482913"))
            #expect(answer.status == 201)
        }
    }

    @Test("a blocked user cannot recover: recovery restores a device, not an account an operator must unblock")
    func blockedUserCannotRecover() async throws {
        try await TestServer().run { api in
            let account = try await Self.account(api, email: "blocked@example.com")
            let policy = api.services.configuration.lockout
            for _ in 0..<policy.maxFailedAttempts {
                let challenge = try await api.startChallenge(email: "blocked@example.com")
                try await api.prove(challenge.challengeId, .password, "wrong guess")
            }
            let answer = try await api.post(
                "/v1/recovery", try Self.recovery(TestDevice(), code: account.sheet.recoveryCode, puk: account.sheet.puks[0]))
            #expect(answer.status == 423)
            #expect(answer.problem?.code == .userLocked)
            // Not counted against the sheet, and nothing bound.
            #expect(try await api.services.store.recoverySheet(userID: account.userID)?.lockout.failedAttempts == 0)
            #expect(try await api.services.store.devices(userID: account.userID).filter { $0.status == .active }.count == 1)
        }
    }

    @Test("a sheet needs a settings_change token, once; a login token and a partner's are refused")
    func sheetNeedsItsOwnSCA() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("sheet@example.com")
            let totp = try await api.enrollTOTP(userID)
            let login = try #require(try await api.logIn("sheet@example.com", totp: totp).accessToken)
            let refused = try await api.bearer(.post, "/v1/me/recovery-sheet", token: login)
            #expect(refused.status == 403)
            #expect(refused.problem?.detail?.contains("settings_change") == true)
            #expect(try await api.bearer(.get, "/v1/me/recovery-sheet", token: login).problem?.code == .recoverySheetNotFound)

            let settings = try await Self.settingsToken(api, email: "sheet@example.com", totp: totp)
            let issued = try await api.bearer(.post, "/v1/me/recovery-sheet", token: settings)
            #expect(issued.status == 201)
            let sheet = try issued.decode(RecoverySheetResponse.self)
            #expect(try await api.bearer(.post, "/v1/me/recovery-sheet", token: settings).problem?.code == .tokenInvalid)
            // An export of the user's data says a sheet exists and what is left, never its code or a PUK.
            let export = try await api.send(.get, "/admin/v1/users/\(userID)/export", admin: true)
            #expect(try export.decode(UserDataExport.self).recoverySheet?.puksLeft == 10)
            let exported = String(decoding: export.body, as: UTF8.self)
            #expect(!exported.contains(sheet.recoveryCode) && !sheet.puks.contains { exported.contains($0) })
            #expect(try await Self.events(api, "recovery.sheet_issued").count == 1)
            // Stored only as digests: no code or PUK in the row.
            let stored = try #require(try await api.services.store.recoverySheet(userID: userID))
            #expect(stored.pukDigests.count == 10)
            #expect(stored.pukDigests.allSatisfy { $0.count == 32 })
        }
    }
}
