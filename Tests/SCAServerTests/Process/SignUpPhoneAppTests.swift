import Foundation
import SCACore
import Testing

/// `sca signup --phone` (`signUp` `phone`) run as a process against a live server: the
/// SMS codes are typed on standard input as they arrive in the server's outbox.
@Suite(
    "sca signup --phone as a process",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct SignUpPhoneAppTests {
    @Test("sca signup --phone: a new number gets an SMS code, sets a password, signs in with SCA")
    func signUpByPhoneAsAProcess() async throws {
        let server = try await LiveServer { $0.signUp.mode = .phone }
        let phone = "+33611223344"
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let outbox = try #require(server.services.outbox)

        try await server.run { url in
            func code(_ count: Int) -> TerminalAppProcess.Reply { .code(count, sentTo: phone, in: outbox) }
            // The password, then the sign-up's code, then the code of the sign-in that follows it.
            let run = try await TerminalAppProcess.interact(
                ["signup", "--phone", phone, "--password-stdin", "--server", url.absoluteString], home: home,
                replies: [.now("a terminal passphrase"), code(1), code(2)])
            #expect(run.status == 0, run.diagnostics)
            #expect(run.stdout.contains("account created for \(phone)"), run.diagnostics)
            #expect(run.stdout.contains("signed in as \(phone) (amr: "), run.diagnostics)
            #expect(try await server.services.store.user(loginPhone: phone)?.enrolledMethods == [.password, .smsOTP])

            // Both an e-mail and a phone: refused before anything is sent.
            let both = try await TerminalAppProcess.run(
                ["signup", "--phone", phone, "--email", "a@example.com", "--server", url.absoluteString], home: home)
            #expect(both.status != 0, both.diagnostics)
            #expect(try outbox.messages().filter { $0.to == phone }.count == 2)
        }
    }
}
