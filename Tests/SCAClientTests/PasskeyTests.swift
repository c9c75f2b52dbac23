import Foundation
import SCAClient
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

    /// Registers a passkey for `email` (password and e-mail code, then a settings_change SCA).
    static func registered(_ server: Harness, _ client: SCAClient, email: String) async throws -> SoftwarePasskey {
        func collector() -> ScriptedCollector {
            ScriptedCollector(
                .init(
                    choices: [.password, .emailOTP], secrets: [.password: [Harness.password]],
                    code: { _, _ in try server.lastCode(sentTo: email) }))
        }
        let challenge = try await client.startChallenge(for: .settingsChange, user: UserReference(email: email))
        let settings = try await client.authenticate(challenge: challenge, using: collector())
        let authenticator = SoftwarePasskey()
        let options = try await client.passkeyRegistrationOptions(settingsChangeToken: settings.accessToken)
        _ = try await client.registerPasskey(authenticator.register(options), settingsChangeToken: settings.accessToken)
        return authenticator
    }

    /// A platform authenticator as a collector: it signs whatever passkey options it is given
    /// and is asked nothing else.
    final class PasskeyCollector: FactorCollector {
        let authenticator: SoftwarePasskey
        init(_ authenticator: SoftwarePasskey) { self.authenticator = authenticator }

        func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
            guard methods.contains(where: { $0.id == .passkey }) else { throw ScriptedCollector.ScriptError.unexpected("choice") }
            return .passkey
        }
        func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
            throw ScriptedCollector.ScriptError.unexpected("secret")
        }
        func code(
            for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
            resend: @escaping @Sendable () async throws -> CodeSentResponse
        ) async throws -> String {
            throw ScriptedCollector.ScriptError.unexpected("code")
        }
        func confirm(_ display: TransactionDisplay) async throws -> Bool { true }
        func passBiometricGate(reason: String) async throws -> Bool { false }
        func passkeyAssertion(for options: PasskeyRequestOptions, challenge: ChallengeResponse) async throws -> PasskeyAssertionCredential? {
            authenticator.assert(challenge: options.challenge)
        }
    }

    @Test func aPasskeyAnswersAChallengeAlone() async throws {
        try await SDKTestServer({
            $0.webauthnRPID = "localhost"
            $0.webauthnOrigins = ["http://localhost:8080"]
        }).run { server in
            _ = try await server.createUser("pkl@example.com")
            let client = server.client()
            let authenticator = try await Self.registered(server, client, email: "pkl@example.com")

            // Through the loop: the collector hands over the platform's assertion.
            let challenge = try await client.startChallenge(for: .login, user: UserReference(email: "pkl@example.com"))
            #expect(challenge.passkey?.allowCredentials.map(\.id) == [authenticator.credentialIDText])
            let tokens = try await client.authenticate(challenge: challenge, using: PasskeyCollector(authenticator))
            #expect(tokens.amr == [.passkey, .passkeyUserVerified])

            // Discoverable, without an e-mail: the assertion names the user; the session is saved.
            let resident = try await client.startPasskeyLogin()
            let options = try #require(resident.passkey)
            #expect(options.allowCredentials.isEmpty)
            let answer = try await client.submitPasskeyAssertion(authenticator.assert(challenge: options.challenge), to: resident)
            #expect(answer.status == .complete && answer.amr == [.passkey, .passkeyUserVerified])
            #expect(try await client.sessionAccess() != nil)
            // The same assertion again is refused.
            await #expect(throws: SCAClientError.self) {
                try await client.submitPasskeyAssertion(authenticator.assert(challenge: "AAAA"), to: resident)
            }
        }
    }
}
