import Foundation
import SCACore
import Testing

/// `sca` run as a process with the locale variables a user's shell sets: it speaks the language
/// they name, and what scripts read (exit statuses, the `error:` prefix and its codes, the
/// answer letters) stays as it is in English.
@Suite(
    "sca speaks the language of its environment",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct TerminalLanguageTests {
    @Test("LANG=de_DE.UTF-8: activation, an operation to approve and a failure in German, the amount as German writes it")
    func german() async throws {
        let german = ["LANG": "de_DE.UTF-8"]
        let server = try await LiveServer { $0.adminKey = TerminalApproveTests.adminKey }
        let user = try await server.services.users.create(CreateUserRequest(email: "de@example.com", password: "correct horse battery"))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }

        // Nothing stored yet: the failure's words are German, its prefix and exit status are not.
        let signedOut = try await TerminalAppProcess.run(["devices", "--server", "http://127.0.0.1:9"], home: home, locale: german)
        #expect(signedOut.status == 1, signedOut.diagnostics)
        #expect(signedOut.stderr == "error: nicht angemeldet: führen Sie zuerst 'sca login' aus\n", signedOut.diagnostics)

        try await server.run { url in
            let activate = try await TerminalAppProcess.run(
                ["activate", activation, "--name", "Telefon", "--server", url.absoluteString], home: home, locale: german)
            #expect(activate.status == 0, activate.diagnostics)
            #expect(activate.lines.first?.hasPrefix("Gerät aktiviert: dev_") == true, activate.diagnostics)
            #expect(!activate.stdout.contains("device activated"), activate.diagnostics)

            let id = try await TerminalApproveTests.createPayment(url, userID: user.id)
            // `y` is typed as in English: the prompt names the letter and says what it means in German.
            let approve = try await TerminalAppProcess.run(
                ["approve", "--biometric", "approve"], input: "y\n", home: home, locale: german)
            #expect(approve.status == 0, approve.diagnostics)
            #expect(approve.lines == ["freigegeben: \(id)"], approve.diagnostics)
            let shown = [
                "Vorgang \(id): Zahlung", "Zahlung von 125,00\u{00A0}€ an ACME SAS", "IBAN FR76 3000 6000 0112 3456 7890 189",
                "Nachricht: Order 42", "Läuft ab am ", "Freigeben? y ja / n war ich nicht / w falscher Betrag",
            ]
            for line in shown {
                #expect(approve.stderr.contains(line), "\(line)\n\(approve.diagnostics)")
            }
            for english in ["Operation ", "Pay ", "125.00", "Expires", "Approve? y yes", "approved: "] {
                #expect(!approve.stderr.contains(english) && !approve.stdout.contains(english), "\(english)\n\(approve.diagnostics)")
            }
            #expect(try await TerminalApproveTests.status(url, id).status == .approved)
        }
    }

    @Test("LC_ALL=fr_FR.UTF-8 beats LANG=de_DE.UTF-8: French, with its no-break spaces before the colon")
    func lcAllBeatsLang() async throws {
        let locale = ["LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }

        let status = try await TerminalAppProcess.run(["status", "--server", "http://127.0.0.1:9"], home: home, locale: locale)
        #expect(status.status == 0, status.diagnostics)
        #expect(
            status.lines == [
                "serveur\u{00A0}: http://127.0.0.1:9", "dossier\u{00A0}: \(home.path)", "appareil\u{00A0}: non activé (sca activate CODE)",
                "connecté\u{00A0}: non",
            ], status.diagnostics)

        let signedOut = try await TerminalAppProcess.run(["devices", "--server", "http://127.0.0.1:9"], home: home, locale: locale)
        #expect(signedOut.status == 1, signedOut.diagnostics)
        #expect(signedOut.stderr == "error: non connecté\u{00A0}: lancez d'abord 'sca login'\n", signedOut.diagnostics)
        for other in ["not signed in", "nicht angemeldet"] {
            #expect(!signedOut.stderr.contains(other), signedOut.diagnostics)
        }
    }

    /// What many CI machines and containers set: the plain locale, which names no language.
    @Test("LANG=C.UTF-8 is English")
    func plainLocaleIsEnglish() async throws {
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let signedOut = try await TerminalAppProcess.run(
            ["devices", "--server", "http://127.0.0.1:9"], home: home, locale: ["LANG": "C.UTF-8"])
        #expect(signedOut.status == 1, signedOut.diagnostics)
        #expect(signedOut.stderr == "error: not signed in: run 'sca login' first\n", signedOut.diagnostics)
    }
}
