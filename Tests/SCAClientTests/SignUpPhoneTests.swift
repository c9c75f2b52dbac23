import Foundation
import SCAClient
import SCACore
import Testing

/// `SCAClient.signUpOrIn(phone:)` (`signUp` `phone`) against the real server over HTTP.
@Suite struct SignUpPhoneTests {
    @Test func newPhoneSignsUpSetsAPasswordAndEndsWithSCA() async throws {
        try await SDKTestServer { $0.signUp.mode = .phone }.run { server in
            let collector = SignUpTests.NewUserCollector(server: server, code: .smsOTP, sentTo: "+33698765432", password: "a fresh passphrase")
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
            let again = SignUpTests.NewUserCollector(server: server, code: .smsOTP, sentTo: "+33698765432", password: "a fresh passphrase")
            let login = try await server.client().signUpOrIn(phone: "+33698765432", using: again)
            #expect(login.acr == TokenResponse.scaACR)
            #expect(!again.questions.contains { $0.hasPrefix("new-secret") })
            #expect(try await server.services.users.list().count == 1)
        }
    }
}
