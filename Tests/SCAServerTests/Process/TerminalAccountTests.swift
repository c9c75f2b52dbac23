import Foundation
import SCACore
import Testing

/// `sca account` as a process: what the account page lists, in the terminal, this device and
/// this session marked; ending every other session from it.
@Suite(
    "sca account, as processes",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct TerminalAccountTests {
    @Test("sca account lists devices, sessions and activity; end-others ends the other phone's session")
    func listsAndEnds() async throws {
        let server = try await LiveServer()
        let email = "terminal-account@example.com"
        let user = try await server.services.users.create(
            CreateUserRequest(email: email, password: "correct horse battery", phone: "+33612345671"))
        let phoneA = try TerminalAppProcess.temporaryHome()
        let phoneB = try TerminalAppProcess.temporaryHome()
        defer {
            try? FileManager.default.removeItem(at: phoneA)
            try? FileManager.default.removeItem(at: phoneB)
        }

        try await server.run { url in
            for (home, name) in [(phoneA, "Phone A"), (phoneB, "Phone B")] {
                let code = try await server.services.devices.issueActivationCode(for: user.id).activationCode
                let activate = try await TerminalAppProcess.run(
                    ["activate", code, "--name", name, "--server", url.absoluteString], home: home)
                #expect(activate.status == 0, activate.diagnostics)
                let login = try await TerminalAppProcess.run(["login", "--cold-start", "--biometric", "approve"], home: home)
                #expect(login.status == 0, login.diagnostics)
            }

            let listed = try await TerminalAppProcess.run(["account"], home: phoneA)
            #expect(listed.status == 0, listed.diagnostics)
            #expect(listed.lines.first == "Account of \(email)", listed.diagnostics)
            #expect(listed.lines.contains("  Phone number: +33612345671"), listed.diagnostics)
            #expect(listed.lines.contains("  Authenticator app: not set"), listed.diagnostics)
            #expect(listed.lines.contains { $0.hasPrefix("  * dev_") && $0.contains("Phone A") }, listed.diagnostics)
            #expect(listed.lines.contains { $0.hasPrefix("  - dev_") && $0.contains("Phone B") }, listed.diagnostics)
            let sessions = listed.lines.filter { $0.hasPrefix("  * ses_") || $0.hasPrefix("  - ses_") }
            #expect(sessions.count == 2, listed.diagnostics)
            #expect(sessions.contains { $0.hasPrefix("  * ses_") && $0.hasSuffix("(this session)") }, listed.diagnostics)
            #expect(listed.lines.contains("Recovery sheet"))
            #expect(listed.lines.contains("  You have no recovery sheet yet."))
            #expect(listed.lines.contains { $0.contains("Signed in") && $0.contains("from 127.0.0.0/24") }, listed.diagnostics)

            let ended = try await TerminalAppProcess.run(["account", "end-others"], home: phoneA)
            #expect(ended.status == 0, ended.diagnostics)
            #expect(ended.lines == ["1 other session ended."], ended.diagnostics)
            let after = try await TerminalAppProcess.run(["account"], home: phoneA)
            #expect(after.lines.filter { $0.hasPrefix("  * ses_") || $0.hasPrefix("  - ses_") }.count == 1, after.diagnostics)
        }
    }

    @Test("sca activate --recovery-sheet binds the device, then prints a sheet its own keys confirmed")
    func activationWithARecoverySheet() async throws {
        let server = try await LiveServer()
        let user = try await server.services.users.create(
            CreateUserRequest(email: "sheet-at-activation@example.com", password: "correct horse battery", phone: "+33612345672"))
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try await server.run { url in
            let code = try await server.services.devices.issueActivationCode(for: user.id).activationCode
            let activated = try await TerminalAppProcess.run(
                ["activate", code, "--name", "Phone", "--server", url.absoluteString, "--recovery-sheet", "--biometric", "approve"],
                home: home)
            #expect(activated.status == 0, activated.diagnostics)
            #expect(activated.lines.contains { $0.hasPrefix("recovery code: ") }, activated.diagnostics)
            #expect(activated.lines.filter { $0.hasPrefix("PUK ") }.count == 10, activated.diagnostics)
            let status = try #require(try await server.services.recovery.sheetStatus(of: user.id))
            #expect(status.puksLeft == 10)
        }
    }
}
