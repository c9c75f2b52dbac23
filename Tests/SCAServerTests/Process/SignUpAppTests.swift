import Foundation
import SCACore
import SCAEngine
import Testing

/// `sca signup` and `sca me` run as a process against a live server: the e-mail codes
/// are typed on standard input as they arrive in the server's outbox, as a person would, or
/// given as `--code` values.
@Suite(
    "sca signup as a process",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct SignUpAppTests {
    @Test("sca signup: a new address gets a code, sets a password, signs in with SCA; sca me shows the account")
    func signUpAsAProcess() async throws {
        let server = try await LiveServer { $0.signUp.mode = .email }
        let email = "terminal-new@example.com"
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let outbox = try #require(server.services.outbox)

        try await server.run { url in
            func code(_ count: Int) -> TerminalAppProcess.Reply { .code(count, sentTo: email, in: outbox) }
            // The password, then the sign-up's code, then the code of the sign-in that follows it.
            let run = try await TerminalAppProcess.interact(
                ["signup", "--email", email, "--password-stdin", "--server", url.absoluteString], home: home,
                replies: [.now("a terminal passphrase"), code(1), code(2)])
            #expect(run.status == 0, run.diagnostics)
            #expect(run.stdout.contains("account created for \(email)"), run.diagnostics)
            #expect(run.stdout.contains("signed in as \(email) (amr: "), run.diagnostics)
            #expect(try await server.services.users.find(email)?.enrolledMethods == [.password, .emailOTP])

            let me = try await TerminalAppProcess.run(["me", "--server", url.absoluteString], home: home)
            #expect(me.status == 0, me.diagnostics)
            #expect(me.lines.contains("e-mail: \(email)"), me.diagnostics)
            #expect(me.lines.contains("methods: password, email_otp"), me.diagnostics)
        }
    }

    @Test("sca signup --code is repeatable: every code asked is the next value, in order, then standard input")
    func everyCodeScripted() async throws {
        // An immediate verdict: a wrong code is told at once and asked again (a deferred
        // verdict fails the whole round instead).
        let server = try await LiveServer {
            $0.signUp.mode = .email
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
        }
        let email = "terminal-codes@example.com"
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let outbox = try #require(server.services.outbox)

        try await server.run { url in
            // Two wrong codes as --code values: both are tried, in order, before standard input
            // is asked; then the right one on standard input, and the sign-in's code after it.
            let wrong = ["000000", "111111"]
            let run = try await TerminalAppProcess.interact(
                ["signup", "--email", email, "--password-stdin", "--code", wrong[0], "--code", wrong[1],
                 "--server", url.absoluteString],
                home: home,
                replies: [
                    .now("a terminal passphrase"),
                    TerminalAppProcess.Reply(
                        ready: { printed in printed.contains("Code (r to resend") },
                        line: { String(try #require(try outbox.messages().last { $0.to == email }).text.prefix(6)) }),
                    .code(2, sentTo: email, in: outbox),
                ])
            #expect(run.status == 0, run.diagnostics)
            #expect(run.stdout.contains("account created for \(email)"), run.diagnostics)
            let events = try await server.services.store.auditEntries(after: 0, limit: 1_000)
            #expect(events.filter { $0.draft.event == "proof.rejected" }.count == 2, "both --code values were tried")
            #expect(try await server.services.users.find(email)?.enrolledMethods == [.password, .emailOTP])
        }
    }
}
