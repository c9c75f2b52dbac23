import Foundation
import SCAClient
import SCACore
import SCAEngine
import Testing

/// The user's own details through the SDK against the real server over HTTP: each change runs
/// its own `settings_change` challenge; a new address and a new authenticator app count only
/// once their code comes back.
@Suite struct SettingsTests {
    @Test func newEmailCountsOnceItsCodeComesBack() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("dee@example.com", phone: Harness.phone)
            let totp = try await server.enrollTOTP(userID)
            let collector = ScriptedCollector(.init(choices: [.totp, .totp, .totp], code: { _, _ in server.nextCode(totp) }))
            let client = server.client()
            _ = try await client.logIn(email: "dee@example.com", using: collector, prefill: [.password: Harness.password])

            let waiting = try await client.changeEmail(to: "dee.new@example.com", using: collector, prefill: [.password: Harness.password])
            #expect(waiting.channel == .email)
            #expect(waiting.sentTo == "d****@example.com")
            #expect(try await server.services.store.user(id: userID)?.email == "dee@example.com")

            let right = try server.lastCode(sentTo: "dee.new@example.com")
            let wrong = right == "000000" ? "000001" : "000000"
            await #expect(throws: SCAClientError.self) { try await client.confirmContactChange(.email, code: wrong) }
            try await client.confirmContactChange(.email, code: right)
            #expect(try await server.services.store.user(id: userID)?.email == "dee.new@example.com")
            #expect(try await client.accountOverview().email == "dee.new@example.com")
        }
    }

    @Test func authenticatorAppReplacesTheOldOneOnceConfirmed() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("eli@example.com")
            let totp = try await server.enrollTOTP(userID)
            let collector = ScriptedCollector(.init(choices: [.totp, .totp, .totp], code: { _, _ in server.nextCode(totp) }))
            let client = server.client()
            _ = try await client.logIn(email: "eli@example.com", using: collector, prefill: [.password: Harness.password])

            let setup = try await client.setUpAuthenticatorApp(using: collector, prefill: [.password: Harness.password])
            let app = try #require(TOTP.parse(setup.otpauthUri))
            #expect(setup.secret.count == 32)
            try await client.confirmAuthenticatorApp(code: app.code(at: server.clock.now()))
            let overview = try await client.accountOverview()
            #expect(overview.hasAuthenticatorApp)
            // The new app signs in (that the old one no longer does is the router tests').
            let withNew = ScriptedCollector(.init(choices: [.totp], code: { _, _ in server.nextCode(app) }))
            let tokens = try await server.client().logIn(email: "eli@example.com", using: withNew, prefill: [.password: Harness.password])
            #expect(tokens.amr == [.password, .totp])
        }
    }
}
