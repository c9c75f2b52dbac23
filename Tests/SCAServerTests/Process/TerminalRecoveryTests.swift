import Foundation
import SCACore
import Testing

/// A lost phone, as the user lives it: `sca` on phone A shows the recovery sheet; phone A is
/// lost; `sca recover` on a fresh phone B binds it with the sheet and the password. Phone A's
/// cold start is then refused, and the alert is in the outbox.
@Suite(
    "sca recovery after a lost phone, as processes",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct TerminalRecoveryTests {
    @Test("sca recovery show on phone A, sca recover on phone B: A is refused, the user is alerted")
    func lostPhone() async throws {
        let server = try await LiveServer()
        let email = "lost-phone@example.com"
        let password = "correct horse battery"
        let user = try await server.services.users.create(CreateUserRequest(email: email, password: password, phone: "+33612345670"))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let phoneA = try TerminalAppProcess.temporaryHome()
        let phoneB = try TerminalAppProcess.temporaryHome()
        defer {
            try? FileManager.default.removeItem(at: phoneA)
            try? FileManager.default.removeItem(at: phoneB)
        }

        try await server.run { url in
            let activate = try await TerminalAppProcess.run(
                ["activate", activation, "--name", "Phone A", "--server", url.absoluteString], home: phoneA)
            #expect(activate.status == 0, activate.diagnostics)

            // The sheet: a settings_change SCA with the device's key and biometry, then printed once.
            let show = try await TerminalAppProcess.run(["recovery", "show", "--biometric", "approve"], home: phoneA)
            #expect(show.status == 0, show.diagnostics)
            let code = try #require(show.lines.first { $0.hasPrefix("recovery code: ") }?.dropFirst("recovery code: ".count))
            let puks = show.lines.filter { $0.hasPrefix("PUK ") }.map { String($0.split(separator: " ").last ?? "") }
            #expect(puks.count == 10, show.diagnostics)
            #expect(show.stderr.contains("shown only now"), show.diagnostics)

            // Phone A is lost. Phone B, a fresh home: the code, the first PUK, the password on stdin.
            let recover = try await TerminalAppProcess.run(
                ["recover", String(code), "--puk", puks[0], "--secret-stdin", "--name", "Phone B", "--server", url.absoluteString],
                input: password + "\n", home: phoneB)
            #expect(recover.status == 0, recover.diagnostics)
            #expect(recover.lines.first?.hasPrefix("device recovered: dev_") == true, recover.diagnostics)
            #expect(recover.lines.first?.contains("devices removed: 1") == true, recover.diagnostics)
            #expect(recover.lines.first?.contains("PUKs left: 9") == true, recover.diagnostics)

            // Phone A's cold start is refused; phone B's works.
            let coldA = try await TerminalAppProcess.run(["login", "--cold-start", "--biometric", "approve"], home: phoneA)
            #expect(coldA.status != 0, coldA.diagnostics)
            #expect(coldA.stderr.contains("device.removed"), coldA.diagnostics)
            let coldB = try await TerminalAppProcess.run(["login", "--cold-start", "--biometric", "approve"], home: phoneB)
            #expect(coldB.status == 0, coldB.diagnostics)
            // Phone B never signed in with the e-mail address: it names the user by id.
            #expect(coldB.lines == ["signed in as \(user.id) (amr: device_key, biometric_key)"], coldB.diagnostics)

            // The same PUK again, from a third home, is refused.
            let again = try await TerminalAppProcess.run(
                ["recover", String(code), "--puk", puks[0], "--secret-stdin", "--server", url.absoluteString],
                input: password + "\n", home: try TerminalAppProcess.temporaryHome())
            #expect(again.status != 0, again.diagnostics)
            #expect(again.stderr.contains("recovery.failed"), again.diagnostics)

            // The alert is in the outbox, on both channels.
            let outbox = try #require(server.services.outbox).messages()
            for address in [email, "+33612345670"] {
                #expect(outbox.contains { $0.to == address && $0.text.contains("recovery sheet was used") && $0.text.contains("Phone B") })
            }
        }
    }
}
