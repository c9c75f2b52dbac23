import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import Testing

/// A new e-mail address or phone number counts only once the code sent to it comes back, and a
/// new authenticator app only once a code of it does: through the real routes, with the
/// refusals (wrong codes, the limit, expiry, another user's code, a partner's token) changing
/// nothing.
@Suite("Contact changes and authenticator apps confirmed by a code")
struct AccountSettingsTests {
    static let password = "correct horse battery"

    /// A user with a password, TOTP and a phone; their login token.
    static func user(_ api: APIClient, _ email: String, phone: String) async throws -> (id: String, totp: TOTP, login: String) {
        let id = try await api.createUser(email, phone: phone)
        let totp = try await api.enrollTOTP(id)
        let login = try #require(try await api.logIn(email, totp: totp).accessToken)
        return (id, totp, login)
    }

    static func change(_ api: APIClient, _ request: SettingsChangeRequest, email: String, totp: TOTP) async throws -> APIResponse {
        let token = try await RecoveryTests.settingsToken(api, email: email, totp: totp)
        return try await api.send(.patch, "/v1/me", bearer: token, body: try WireJSON.encoder().encode(request))
    }

    static func confirm(_ api: APIClient, _ channel: ContactChannel, code: String, token: String) async throws -> APIResponse {
        try await api.send(
            .post, "/v1/me/contact-confirmations", bearer: token,
            body: try WireJSON.encoder().encode(ContactConfirmationRequest(channel: channel, code: code)))
    }

    /// A code that is not `right`.
    static func wrong(_ right: String) -> String {
        right == "000000" ? "000001" : "000000"
    }

    @Test("a new e-mail address waits for its code: a wrong code changes nothing, the right one changes it and alerts both addresses")
    func emailConfirmedByCode() async throws {
        try await TestServer().run { api in
            let user = try await Self.user(api, "before@example.com", phone: "+33612340001")
            let asked = try await Self.change(api, SettingsChangeRequest(email: "After@Example.com"), email: "before@example.com", totp: user.totp)
            #expect(asked.status == 200)
            let waiting = try asked.decode(UserResponse.self)
            #expect(waiting.email == "before@example.com")
            #expect(waiting.pendingConfirmations == [
                PendingContactChangeResponse(channel: .email, sentTo: "a****@example.com", expiresAt: api.clock.now().addingTimeInterval(300))
            ])
            // The code went to the new address alone, and nobody was told of a change yet.
            let code = try api.lastCode(sentTo: "after@example.com")
            #expect(try SecurityAlertTests.texts(api, to: "after@example.com").count == 1)
            #expect(try SecurityAlertTests.texts(api, to: "before@example.com").allSatisfy { !$0.contains("was changed") })
            let overview = try await AccountOverviewTests.overview(api, user.login)
            #expect(overview.pendingContactChanges.map(\.channel) == [.email])

            let refused = try await Self.confirm(api, .email, code: Self.wrong(code), token: user.login)
            #expect(refused.status == 422)
            #expect(refused.problem?.code == .confirmationCodeInvalid)
            #expect(refused.problem?.remainingAttempts == 4)
            #expect(try await api.services.store.user(id: user.id)?.email == "before@example.com")
            // A code from the wrong channel confirms nothing.
            #expect(try await Self.confirm(api, .phone, code: code, token: user.login).problem?.code == .confirmationNothingPending)

            let confirmed = try await Self.confirm(api, .email, code: code, token: user.login)
            #expect(confirmed.status == 200)
            #expect(try confirmed.decode(UserResponse.self).email == "after@example.com")
            #expect(try await api.services.store.user(id: user.id)?.email == "after@example.com")
            for address in ["before@example.com", "after@example.com", "+33612340001"] {
                #expect(try SecurityAlertTests.texts(api, to: address).contains { $0.contains("e-mail address of your account was changed") }, "\(address)")
            }
            // Used once.
            #expect(try await Self.confirm(api, .email, code: code, token: user.login).status == 404)
            #expect(try await AccountOverviewTests.overview(api, user.login).pendingContactChanges.isEmpty)
            let trail = try await api.services.store.auditEntries(userID: user.id, before: nil, limit: 50).map(\.draft.event)
            #expect(trail.contains("contact.change_requested"))
            #expect(trail.contains("contact.change_refused"))
            #expect(trail.contains("user.settings_changed"))
        }
    }

    @Test("five wrong codes drop the change; an expired one counts for nothing; a cancelled one is gone")
    func wrongCodesExpiryAndCancel() async throws {
        try await TestServer().run { api in
            let user = try await Self.user(api, "limit@example.com", phone: "+33612340002")
            _ = try await Self.change(api, SettingsChangeRequest(phone: "+33612340099"), email: "limit@example.com", totp: user.totp)
            let code = try api.lastCode(sentTo: "+33612340099")
            var remaining: [Int?] = []
            for _ in 0..<5 {
                remaining.append(try await Self.confirm(api, .phone, code: Self.wrong(code), token: user.login).problem?.remainingAttempts)
            }
            #expect(remaining == [4, 3, 2, 1, 0])
            // Dropped: even the right code finds nothing now.
            #expect(try await Self.confirm(api, .phone, code: code, token: user.login).problem?.code == .confirmationNothingPending)
            #expect(try await api.services.store.user(id: user.id)?.phone == "+33612340002")

            // Bad input is refused before it counts as a try.
            _ = try await Self.change(api, SettingsChangeRequest(phone: "+33612340098"), email: "limit@example.com", totp: user.totp)
            let second = try api.lastCode(sentTo: "+33612340098")
            #expect(try await Self.confirm(api, .phone, code: "12ab56", token: user.login).status == 400)
            let wrongOnce = try await Self.confirm(api, .phone, code: Self.wrong(second), token: user.login)
            #expect(wrongOnce.problem?.remainingAttempts == 4)
            // Past the code's lifetime the change is gone (a new sign-in: the old one idled out).
            api.clock.advance(by: 301)
            let login = try #require(try await api.logIn("limit@example.com", totp: user.totp).accessToken)
            let expired = try await Self.confirm(api, .phone, code: second, token: login)
            #expect(expired.problem?.code == .confirmationNothingPending)

            _ = try await Self.change(api, SettingsChangeRequest(phone: "+33612340097"), email: "limit@example.com", totp: user.totp)
            let third = try api.lastCode(sentTo: "+33612340097")
            #expect(try await api.send(.delete, "/v1/me/contact-confirmations/phone", bearer: login).status == 204)
            #expect(try await api.send(.delete, "/v1/me/contact-confirmations/phone", bearer: login).status == 404)
            #expect(try await api.send(.delete, "/v1/me/contact-confirmations/fax", bearer: login).status == 404)
            #expect(try await Self.confirm(api, .phone, code: third, token: login).status == 404)
            #expect(try await api.services.store.user(id: user.id)?.phone == "+33612340002")
        }
    }

    @Test("another user's code confirms nothing of mine, and a right code confirms once when sent many times at once")
    func codesAreTheirOwnersAndUsedOnce() async throws {
        try await TestServer().run { api in
            let alice = try await Self.user(api, "alice.c@example.com", phone: "+33612340003")
            let bob = try await Self.user(api, "bob.c@example.com", phone: "+33612340004")
            _ = try await Self.change(api, SettingsChangeRequest(email: "alice.new@example.com"), email: "alice.c@example.com", totp: alice.totp)
            _ = try await Self.change(api, SettingsChangeRequest(email: "bob.new@example.com"), email: "bob.c@example.com", totp: bob.totp)
            let aliceCode = try api.lastCode(sentTo: "alice.new@example.com")
            let bobCode = try api.lastCode(sentTo: "bob.new@example.com")
            if aliceCode != bobCode {
                #expect(try await Self.confirm(api, .email, code: aliceCode, token: bob.login).status == 422)
            }

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await Self.confirm(api, .email, code: aliceCode, token: alice.login).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 404 }, "\(statuses)")
            #expect(try await api.services.store.user(id: alice.id)?.email == "alice.new@example.com")
            #expect(try await api.services.store.user(id: bob.id)?.email == "bob.c@example.com")
        }
    }

    @Test("a new authenticator app needs its own confirmation and counts once a code of it comes back; the old one stops")
    func authenticatorApp() async throws {
        try await TestServer().run { api in
            let user = try await Self.user(api, "app@example.com", phone: "+33612340005")
            // A login token is not a confirmation of the change.
            #expect(try await api.send(.post, "/v1/me/totp", bearer: user.login).problem?.code == .forbidden)
            let token = try await RecoveryTests.settingsToken(api, email: "app@example.com", totp: user.totp)
            let started = try await api.send(.post, "/v1/me/totp", bearer: token)
            #expect(started.status == 201)
            let setup = try started.decode(TOTPSetupResponse.self)
            #expect(setup.otpauthUri.hasPrefix("otpauth://totp/"))
            #expect(try await api.send(.post, "/v1/me/totp", bearer: token).status == 401)  // spent
            let app = try #require(TOTP.parse(setup.otpauthUri))

            func confirm(_ code: String) async throws -> APIResponse {
                try await api.send(
                    .post, "/v1/me/totp/confirmation", bearer: user.login,
                    body: try WireJSON.encoder().encode(TOTPConfirmationRequest(code: code)))
            }
            let rightCode = app.code(at: api.clock.now())
            let wrong = try await confirm(Self.wrong(rightCode))
            #expect(wrong.status == 422)
            #expect(wrong.problem?.remainingAttempts == 4)
            // The old app still counts until then.
            api.clock.advance(by: 30)
            #expect(try await api.logIn("app@example.com", totp: user.totp).accessToken != nil)
            #expect(try await confirm(app.code(at: api.clock.now())).status == 204)
            #expect(try await confirm(app.code(at: api.clock.now())).status == 404)

            api.clock.advance(by: 30)
            #expect(try await api.logIn("app@example.com", totp: app).accessToken != nil)
            api.clock.advance(by: 30)
            let old = try await api.startChallenge(email: "app@example.com")
            _ = try await api.prove(old.challengeId, .password, Self.password)
            #expect(try await api.prove(old.challengeId, .totp, user.totp.code(at: api.clock.now())).status != 200)
            #expect(try SecurityAlertTests.texts(api, to: "app@example.com").contains { $0.contains("authenticator") })
            let trail = try await api.services.store.auditEntries(userID: user.id, before: nil, limit: 80).map(\.draft.event)
            #expect(trail.contains("totp.setup_started"))
            #expect(trail.contains("user.totp_enrolled"))
        }
    }

    @Test("a device is renamed by its owner; a bad name, another user's or a removed device changes nothing")
    func deviceRenamed() async throws {
        try await TestServer().run { api in
            let owner = try await Self.user(api, "namer@example.com", phone: "+33612340007")
            let other = try await Self.user(api, "other.namer@example.com", phone: "+33612340008")
            let code = try await api.services.devices.issueActivationCode(for: owner.id).activationCode
            var device = TestDevice()
            let registered = try await api.post("/v1/devices", try device.registration(code: code))
            device.deviceID = try registered.decode(RegisteredDeviceResponse.self).deviceId
            func rename(_ name: String, token: String, id: String? = nil) async throws -> APIResponse {
                try await api.send(
                    .patch, "/v1/devices/\(id ?? device.deviceID)", bearer: token,
                    body: try WireJSON.encoder().encode(RenameDeviceRequest(name: name)))
            }
            let renamed = try await rename("  Kitchen tablet ", token: owner.login)
            #expect(renamed.status == 200)
            #expect(try renamed.decode(DeviceResponse.self).name == "Kitchen tablet")
            for bad in ["", "a\u{7}b", String(repeating: "x", count: 65)] {
                #expect(try await rename(bad, token: owner.login).status == 400)
            }
            #expect(try await rename("Mallory's", token: other.login).problem?.code == .deviceNotFound)
            #expect(try await rename("Mallory's", token: owner.login, id: "dev_unknown").problem?.code == .deviceNotFound)
            #expect(try await api.services.store.device(id: device.deviceID)?.name == "Kitchen tablet")
            _ = try await api.send(.delete, "/v1/devices/\(device.deviceID)", bearer: owner.login)
            #expect(try await rename("After removal", token: owner.login).problem?.code == .deviceNotFound)
            let trail = try await api.services.store.auditEntries(userID: owner.id, before: nil, limit: 50)
            let renames = trail.filter { $0.draft.event == "device.renamed" }
            #expect(renames.count == 1)
            #expect(renames.allSatisfy { $0.draft.details.isEmpty })
        }
    }

    @Test("a partner's token reaches none of these routes and changes nothing")
    func partnerTokenRefused() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "partnered@example.com", phone: "+33612340006")
            let delegated = try #require(tokens["access_token"] as? String)
            let body = try WireJSON.encoder().encode(ContactConfirmationRequest(channel: .email, code: "123456"))
            let totpBody = try WireJSON.encoder().encode(TOTPConfirmationRequest(code: "123456"))
            let routes: [(HTTPRequest.Method, String, Data?)] = [
                (.post, "/v1/me/contact-confirmations", body), (.delete, "/v1/me/contact-confirmations/email", nil),
                (.post, "/v1/me/totp", nil), (.post, "/v1/me/totp/confirmation", totpBody),
                (.patch, "/v1/me", try WireJSON.encoder().encode(SettingsChangeRequest(email: "mallory@example.com"))),
                (.patch, "/v1/devices/dev_AAAAAAAAAAAAAAAAAAAAAA", try WireJSON.encoder().encode(RenameDeviceRequest(name: "Mallory"))),
            ]
            for (method, path, body) in routes {
                let response = try await api.send(method, path, bearer: delegated, body: body)
                #expect(response.status == 403, "\(method) \(path)")
                #expect(response.problem?.code == .tokenDelegated, "\(method) \(path)")
            }
            #expect(try SecurityAlertTests.texts(api, to: "mallory@example.com").isEmpty)
        }
    }
}
