import Foundation
import SCAClient
import SCACore
import SCAServer
import Synchronization
import Testing

/// `SCAClient.signUpOrIn(phone:)` (issue 17, `signUp` `phone`) against the real server over HTTP.
@Suite struct SignUpPhoneTests {
    /// Picks the SMS code whenever it is offered, reads codes from the outbox, and sets a
    /// password when asked for a new secret; records what it was asked.
    final class NewPhoneCollector: FactorCollector {
        let server: Harness
        let phone: String
        let password: String
        private let asked = Mutex<[String]>([])

        init(server: Harness, phone: String, password: String) {
            self.server = server
            self.phone = phone
            self.password = password
        }

        var questions: [String] { asked.withLock { $0 } }

        func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
            asked.withLock { $0.append("choose") }
            return methods.contains { $0.id == .smsOTP } ? .smsOTP : try #require(methods.first).id
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
            return try server.lastCode(sentTo: phone)
        }

        func confirm(_ display: TransactionDisplay) async throws -> Bool { false }
        func passBiometricGate(reason: String) async throws -> Bool { false }

        func newSecret(for login: String) async throws -> NewSecret {
            asked.withLock { $0.append("new-secret:\(login)") }
            return NewSecret(method: .password, value: password)
        }
    }

    @Test func newPhoneSignsUpSetsAPasswordAndEndsWithSCA() async throws {
        try await SDKTestServer { $0.signUp.mode = .phone }.run { server in
            let collector = NewPhoneCollector(server: server, phone: "+33698765432", password: "a fresh passphrase")
            let client = server.client()
            let tokens = try await client.signUpOrIn(phone: "+33 6 98 76 54 32", using: collector)
            #expect(tokens.operation == .login)
            #expect(tokens.acr == TokenResponse.scaACR)
            #expect(Set(tokens.amr) == [.password, .smsOTP])
            #expect(tokens.refreshToken != nil)
            // One code for the sign-up, the new password, then the login's code (the password prefilled).
            #expect(collector.questions.filter { $0.hasPrefix("code:sms_otp") }.count == 2)
            #expect(collector.questions.contains("new-secret:+33 6 98 76 54 32"))
            #expect(!collector.questions.contains("secret:password"))
            let me = try await client.me()
            #expect(me.phone == "+33698765432")
            #expect(me.methods == [.password, .smsOTP])

            // Known now: a normal login, no new secret.
            let again = NewPhoneCollector(server: server, phone: "+33698765432", password: "a fresh passphrase")
            let login = try await server.client().signUpOrIn(phone: "+33698765432", using: again)
            #expect(login.acr == TokenResponse.scaACR)
            #expect(!again.questions.contains { $0.hasPrefix("new-secret") })
            #expect(try await server.services.users.list().count == 1)
        }
    }
}
