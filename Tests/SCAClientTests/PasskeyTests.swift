import Foundation
import SCAClient
import SCAServer
import SCATestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK's passkey calls against a real server: options after a settings_change SCA, the
/// platform's answer registered (here a software authenticator plays the platform), listed,
/// removed.
@Suite struct PasskeyTests {
    @Test func registerListAndRemoveAfterSCA() async throws {
        try await SDKTestServer({
            $0.webauthnRPID = "localhost"
            $0.webauthnOrigins = ["http://localhost:8080"]
        }).run { server in
            _ = try await server.createUser("pk@example.com")
            let client = server.client()
            func collector() -> ScriptedCollector {
                ScriptedCollector(
                    .init(
                        choices: [.password, .emailOTP], secrets: [.password: [Harness.password]],
                        code: { _, _ in try server.lastCode(sentTo: "pk@example.com") }))
            }
            _ = try await client.logIn(email: "pk@example.com", using: collector())
            let challenge = try await client.startChallenge(for: .settingsChange, user: UserReference(email: "pk@example.com"))
            let settings = try await client.authenticate(challenge: challenge, using: collector())

            let options = try await client.passkeyRegistrationOptions(settingsChangeToken: settings.accessToken)
            #expect(options.rp.id == "localhost")
            let authenticator = SoftwarePasskey()
            let registered = try await client.registerPasskey(
                authenticator.register(options), name: "Phone", settingsChangeToken: settings.accessToken)
            #expect(registered.name == "Phone" && registered.status == .active)
            #expect(try await client.passkeys().map(\.passkeyId) == [registered.passkeyId])

            // The token is spent: a second registration is refused.
            await #expect(throws: SCAClientError.self) {
                try await client.registerPasskey(SoftwarePasskey().register(options), settingsChangeToken: settings.accessToken)
            }
            #expect(try await client.removePasskey(registered.passkeyId).passkeyId == registered.passkeyId)
            #expect(try await client.passkeys().isEmpty)
        }
    }
}
