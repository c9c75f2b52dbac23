import Foundation
import SCACore
import Testing

/// A user hears at once, on every channel, of every change to what protects their account,
/// and a changed address or number is told too, so the real owner hears of a takeover.
@Suite("Security alerts")
struct SecurityAlertTests {
    static func texts(_ api: APIClient, to address: String) throws -> [String] {
        try #require(api.services.outbox).messages().filter { $0.to == address }.map(\.text)
    }

    @Test("a device bound is alerted by e-mail and SMS, naming it and saying what to do")
    func deviceBound() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("bound@example.com", phone: "+41790000001")
            var phone = TestDevice()
            try await api.activate(&phone, userID: userID)
            for address in ["bound@example.com", "+41790000001"] {
                let alert = try #require(try Self.texts(api, to: address).last)
                #expect(alert.contains("A new device, Test phone, was bound to your account on"), "\(alert)")
                #expect(alert.contains("If this was not you"), "\(alert)")
            }
        }
    }

    @Test("a changed e-mail address: the old address and the new one are told; a changed phone: the old number too")
    func contactChanges() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("old@example.com", phone: "+41790000002")
            let totp = try await api.enrollTOTP(userID)
            let token = try await RecoveryTests.settingsToken(api, email: "old@example.com", totp: totp)
            let changed = try await api.send(
                .patch, "/v1/me", bearer: token,
                body: try WireJSON.encoder().encode(SettingsChangeRequest(email: "new@example.com", phone: "+41790000003")))
            #expect(changed.status == 200)
            // Nothing is alerted before the new addresses are confirmed: each got its code.
            #expect(try Self.texts(api, to: "old@example.com").allSatisfy { !$0.contains("e-mail address of your account was changed") })
            let login = try await RecoveryTests.settingsToken(api, email: "old@example.com", totp: totp)
            for (channel, address) in [(ContactChannel.email, "new@example.com"), (.phone, "+41790000003")] {
                let code = try api.lastCode(sentTo: address)
                let confirmed = try await api.send(
                    .post, "/v1/me/contact-confirmations", bearer: login,
                    body: try WireJSON.encoder().encode(ContactConfirmationRequest(channel: channel, code: code)))
                #expect(confirmed.status == 200, "\(address)")
            }

            // The e-mail address was confirmed first, while the old number was still the user's.
            for address in ["old@example.com", "new@example.com", "+41790000002"] {
                #expect(try Self.texts(api, to: address).contains { $0.contains("e-mail address of your account was changed") }, "\(address)")
            }
            for address in ["+41790000002", "+41790000003", "new@example.com"] {
                #expect(try Self.texts(api, to: address).contains { $0.contains("phone number of your account was changed") }, "\(address)")
            }
            // The old address is not told of later changes: it is no longer the user's.
            let before = try Self.texts(api, to: "old@example.com").count
            let again = try await RecoveryTests.settingsToken(api, email: "new@example.com", totp: totp)
            let password = try await api.send(
                .patch, "/v1/me", bearer: again, body: try WireJSON.encoder().encode(SettingsChangeRequest(password: "a brand new passphrase")))
            #expect(password.status == 200)
            #expect(try Self.texts(api, to: "old@example.com").count == before)
            #expect(try Self.texts(api, to: "new@example.com").last?.contains("password of your account was changed") == true)
        }
    }

    @Test("an operator's change is alerted like the user's own; alerts are in the user's language")
    func operatorChangeInTheUsersLanguage() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("leise@example.com")
            #expect(try await api.send(.put, "/admin/v1/users/\(userID)/profile", body: try WireJSON.encoder().encode(ProfileRequest(locale: "de")), admin: true).status == 200)
            let updated = try await api.send(
                .patch, "/admin/v1/users/\(userID)", body: try WireJSON.encoder().encode(UpdateUserRequest(pin: "482913")), admin: true)
            #expect(updated.status == 200)
            let alert = try #require(try Self.texts(api, to: "leise@example.com").last)
            #expect(alert.hasPrefix("Die PIN Ihres Zugangs wurde am"), "\(alert)")
            #expect(alert.contains("Wenn Sie das nicht waren"), "\(alert)")
        }
    }
}
