#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SCACore
import SCAServer
import Testing

/// `sca signup` and `sca me` (issue 17) run as a process against a live server: the e-mail codes
/// are typed on standard input as they arrive in the server's outbox, as a person would.
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
            let binary = try #require(TerminalAppProcess.binary)
            let scratch = home.appendingPathComponent("run")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let outputFile = scratch.appendingPathComponent("stdout")
            let errorFile = scratch.appendingPathComponent("stderr")
            try Data().write(to: outputFile)
            try Data().write(to: errorFile)
            let input = Pipe()
            let process = Process()
            process.executableURL = binary
            process.arguments = ["signup", "--email", email, "--password-stdin", "--server", url.absoluteString, "--home", home.path]
            var environment = ProcessInfo.processInfo.environment
            environment["SCA_SERVER"] = nil
            environment["HOME"] = home.path
            process.environment = environment
            process.standardInput = input
            process.standardOutput = try FileHandle(forWritingTo: outputFile)
            process.standardError = try FileHandle(forWritingTo: errorFile)
            let (ended, continuation) = AsyncStream<Int32>.makeStream()
            process.terminationHandler = { finished in
                continuation.yield(finished.terminationStatus)
                continuation.finish()
            }
            try ProcessLauncher.launch(process)
            let pid = process.processIdentifier
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                kill(pid, SIGKILL)
            }
            defer { watchdog.cancel() }
            input.fileHandleForWriting.write(Data("a terminal passphrase\n".utf8))
            // The sign-up's code, then the code of the sign-in that follows it.
            for count in 1...2 {
                var code: String?
                for _ in 0..<600 where code == nil {
                    let sent = try outbox.messages().filter { $0.to == email }
                    if sent.count >= count { code = String(sent[count - 1].text.prefix(6)) } else { try await Task.sleep(for: .milliseconds(50)) }
                }
                input.fileHandleForWriting.write(Data("\(try #require(code))\n".utf8))
            }
            try input.fileHandleForWriting.close()
            var status: Int32 = -1
            for await code in ended { status = code }
            let stdout = String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
            let stderr = String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
            #expect(status == 0, "stdout: \(stdout)\nstderr: \(stderr)")
            #expect(stdout.contains("account created for \(email)"), "\(stdout)")
            #expect(stdout.contains("signed in as \(email) (amr: "), "\(stdout)")
            #expect(try await server.services.users.find(email)?.enrolledMethods == [.password, .emailOTP])

            let me = try await TerminalAppProcess.run(["me", "--server", url.absoluteString], home: home)
            #expect(me.status == 0, me.diagnostics)
            #expect(me.lines.contains("e-mail: \(email)"), me.diagnostics)
            #expect(me.lines.contains("methods: password, email_otp"), me.diagnostics)
        }
    }
}
