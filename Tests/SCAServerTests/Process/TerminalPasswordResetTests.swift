import Foundation
import SCACore
import Testing

/// A forgotten password, as the user lives it: `sca password reset` on the bound phone proves
/// the reset with the device's key and biometry, so it is complete; the user is alerted.
@Suite(
    "sca password reset, as processes",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct TerminalPasswordResetTests {
    @Test("sca password reset on the bound phone: complete, every session ended, the user alerted")
    func resetOnTheBoundPhone() async throws {
        let server = try await LiveServer()
        let email = "forgetful@example.com"
        let user = try await server.services.users.create(
            CreateUserRequest(email: email, password: "correct horse battery", phone: "+33612345671"))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let phone = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: phone) }

        try await server.run { url in
            let activate = try await TerminalAppProcess.run(
                ["activate", activation, "--name", "Phone", "--server", url.absoluteString], home: phone)
            #expect(activate.status == 0, activate.diagnostics)
            let login = try await TerminalAppProcess.run(["login", "--cold-start", "--biometric", "approve"], home: phone)
            #expect(login.status == 0, login.diagnostics)

            // A sheet without its PUK is refused before anything is asked.
            let half = try await TerminalAppProcess.run(
                ["password", "reset", "--recovery-code", "7JQ3M-KD2PX-WN4FA-HQ6AA", "--new-password-stdin"],
                input: "a brand new passphrase\n", home: phone)
            #expect(half.status != 0 && half.stderr.contains("--recovery-code and --puk together"), half.diagnostics)

            let reset = try await TerminalAppProcess.run(
                ["password", "reset", "--new-password-stdin", "--biometric", "approve"], input: "a brand new passphrase\n",
                home: phone)
            #expect(reset.status == 0, reset.diagnostics)
            #expect(reset.lines.first?.hasPrefix("password reset; sessions ended: ") == true, reset.diagnostics)
            #expect(reset.lines.first != "password reset; sessions ended: 0", reset.diagnostics)

            let entries = try await server.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft)
            let recorded = try #require(entries.first { $0.event == "password.reset" })
            #expect(recorded.outcome == "complete" && recorded.userID == user.id)
            let outbox = try #require(server.services.outbox).messages()
            for address in [email, "+33612345671"] {
                #expect(outbox.contains { $0.to == address && $0.text.contains("was reset on") })
            }
        }
    }
}
