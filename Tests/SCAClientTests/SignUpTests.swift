import Foundation
import SCAClient
import SCACore
import Synchronization
import Testing

/// `SCAClient.signUpOrIn(email:)` against the real server over HTTP.
@Suite struct SignUpTests {
    /// Picks the code of the typed address (`code`: the e-mail code, or the SMS code for a phone)
    /// whenever it is offered, reads codes sent to `destination` from the outbox, and sets a
    /// password when asked for a new secret; records what it was asked.
    final class NewUserCollector: FactorCollector {
        let server: Harness
        let code: AuthenticationMethod
        let destination: String
        let password: String
        private let asked = Mutex<[String]>([])

        init(server: Harness, code: AuthenticationMethod = .emailOTP, sentTo destination: String, password: String) {
            self.server = server
            self.code = code
            self.destination = destination
            self.password = password
        }

        var questions: [String] { asked.withLock { $0 } }

        func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
            asked.withLock { $0.append("choose") }
            return methods.contains { $0.id == code } ? code : try #require(methods.first).id
        }

        func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
            asked.withLock { $0.append("secret:\(method.rawValue)") }
            return password
        }

        func code(
            for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
            resend: @escaping @Sendable () async throws -> CodeSentResponse
        ) async throws -> String {
            asked.withLock { $0.append("code:\(method.rawValue)") }
            return try server.lastCode(sentTo: destination)
        }

        func confirm(_ display: TransactionDisplay) async throws -> Bool { false }
        func passBiometricGate(reason: String) async throws -> Bool { false }

        func newSecret(for login: String) async throws -> NewSecret {
            asked.withLock { $0.append("new-secret:\(login)") }
            return NewSecret(method: .password, value: password)
        }
    }

    @Test func newAddressSignsUpSetsAPasswordAndEndsWithSCA() async throws {
        try await SDKTestServer { $0.signUp.mode = .email }.run { server in
            let collector = NewUserCollector(server: server, sentTo: "neo@example.com", password: "a fresh passphrase")
            let client = server.client()
            let tokens = try await client.signUpOrIn(email: "neo@example.com", using: collector)
            #expect(tokens.operation == .login)
            #expect(tokens.acr == TokenResponse.scaACR)
            #expect(Set(tokens.amr) == [.password, .emailOTP])
            #expect(tokens.refreshToken != nil)
            // One code for the sign-up, the new password, then the login's code (the password prefilled).
            #expect(collector.questions.filter { $0.hasPrefix("code:") }.count == 2)
            #expect(collector.questions.contains("new-secret:neo@example.com"))
            #expect(!collector.questions.contains("secret:password"))
            let me = try await client.me()
            #expect(me.email == "neo@example.com")
            #expect(me.methods == [.password, .emailOTP])
        }
    }

    @Test func knownAddressSignsInWithoutANewSecret() async throws {
        try await SDKTestServer { $0.signUp.mode = .email }.run { server in
            _ = try await server.services.users.create(
                CreateUserRequest(email: "old@example.com", password: Harness.password, emailCodes: true))
            let collector = NewUserCollector(server: server, sentTo: "old@example.com", password: Harness.password)
            let tokens = try await server.client().signUpOrIn(email: "old@example.com", using: collector)
            #expect(tokens.operation == .login)
            #expect(tokens.acr == TokenResponse.scaACR)
            #expect(!collector.questions.contains { $0.hasPrefix("new-secret") })
            #expect(collector.questions.contains("secret:password"))
        }
    }
}
