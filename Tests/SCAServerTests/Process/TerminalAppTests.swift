import Foundation
import SCACore
import Testing

/// `sca`, the terminal banking app, run as a real process against a live server on loopback,
/// the way a user's script would: flags and standard input in, plain lines and exit codes out.
@Suite(
    "sca terminal app as a process",
    .enabled(
        if: TerminalAppProcess.binary != nil,
        "the sca executable is not next to the test bundle: run `swift build --product sca` first"))
struct TerminalAppTests {
    static let iban = "FR7630006000011234567890189"

    @Test("signed in, a low-value payment needs no confirmation and says why")
    func exemptPayment() async throws {
        let server = try await LiveServer { $0.risk.exemptLowValue = true }
        let email = "coffee@example.com"
        let password = "correct horse battery"
        let user = try await server.services.users.create(CreateUserRequest(email: email, password: password))
        let totp = try #require(TOTP.parse(try await server.services.users.enrollTOTP(userID: user.id).otpauthUri))
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }

        try await server.run { url in
            let login = try await TerminalAppProcess.run(
                ["login", "--email", email, "--password-stdin", "--method", "totp", "--code", totp.code(at: Date()), "--server", url.absoluteString],
                input: password + "\n", home: home)
            #expect(login.status == 0, login.diagnostics)
            let pay = try await TerminalAppProcess.run(
                ["pay", "--amount", "2.50", "--currency", "EUR", "--payee", "ACME SAS", "--iban", Self.iban, "--server", url.absoluteString],
                home: home)
            let digest = Transaction(amount: "2.50", currency: "EUR", payee: .init(name: "ACME SAS", iban: Self.iban)).digest
            #expect(pay.status == 0, pay.diagnostics)
            #expect(
                pay.lines == ["no confirmation needed (low-value payment)", "payment authorised: €2.50 to ACME SAS (txn \(digest))"],
                pay.diagnostics)
        }
    }

    @Test("activate, log in with password and TOTP, cold start, pay, status and devices, log out")
    func bankingSession() async throws {
        let server = try await LiveServer()
        let email = "terminal@example.com"
        let password = "correct horse battery"
        let user = try await server.services.users.create(
            CreateUserRequest(email: email, password: password, phone: "+33612345678", roles: ["teller", "customer"]))
        let enrollment = try await server.services.users.enrollTOTP(userID: user.id)
        let totp = try #require(TOTP.parse(enrollment.otpauthUri))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }

        try await server.run { url in
            let activate = try await TerminalAppProcess.run(
                ["activate", activation, "--name", "CI phone", "--server", url.absoluteString], home: home)
            #expect(activate.status == 0, activate.diagnostics)
            #expect(activate.lines.first?.hasPrefix("device activated: dev_") == true, activate.diagnostics)

            // From here on no --server: the activation remembered it.
            let login = try await TerminalAppProcess.run(
                ["login", "--email", email, "--password-stdin", "--method", "totp", "--code", totp.code(at: Date())],
                input: password + "\n", home: home)
            #expect(login.status == 0, login.diagnostics)
            #expect(login.lines == ["signed in as \(email) (amr: password, totp)"], login.diagnostics)

            let coldStart = try await TerminalAppProcess.run(["login", "--cold-start", "--biometric", "approve"], home: home)
            #expect(coldStart.status == 0, coldStart.diagnostics)
            #expect(coldStart.lines == ["signed in as \(email) (amr: device_key, biometric_key)"], coldStart.diagnostics)

            let pay = try await TerminalAppProcess.run(
                [
                    "pay", "--amount", "125.00", "--currency", "EUR", "--payee", "ACME SAS", "--iban", Self.iban,
                    "--yes", "--biometric", "approve",
                ], home: home)
            let digest = Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: Self.iban)).digest
            #expect(pay.status == 0, pay.diagnostics)
            #expect(pay.lines == ["payment authorised: €125.00 to ACME SAS (txn \(digest))"], pay.diagnostics)

            // Confirmed by typing: the confirmation shows the whole account, grouped by four, as
            // `sca approve` and the consent page do (the server's challenge shows it masked).
            let confirmed = try await TerminalAppProcess.run(
                ["pay", "--amount", "7.00", "--currency", "EUR", "--payee", "ACME SAS", "--iban", Self.iban, "--biometric", "approve"],
                input: "y\n", home: home)
            #expect(confirmed.status == 0, confirmed.diagnostics)
            #expect(confirmed.stderr.contains("IBAN    FR76 3000 6000 0112 3456 7890 189"), confirmed.diagnostics)
            #expect(!confirmed.stderr.contains("…"), confirmed.diagnostics)

            // Biometry declined at the sensor: the app falls back to the password, read from stdin.
            let fallback = try await TerminalAppProcess.run(
                [
                    "pay", "--amount", "12.50", "--currency", "EUR", "--payee", "ACME SAS", "--iban", Self.iban,
                    "--reference", "INV-7", "--yes", "--biometric", "cancel", "--password-stdin",
                ], input: password + "\n", home: home)
            #expect(fallback.status == 0, fallback.diagnostics)
            #expect(fallback.lines.first?.hasPrefix("payment authorised: €12.50 to ACME SAS (txn ") == true, fallback.diagnostics)

            let status = try await TerminalAppProcess.run(["status"], home: home)
            #expect(status.status == 0, status.diagnostics)
            #expect(status.lines.contains("server: \(url.absoluteString)"), status.diagnostics)
            #expect(status.lines.contains("device status: active, 5 of 5 attempts left"), status.diagnostics)
            #expect(status.lines.contains { $0.hasPrefix("signed in: yes as \(email)") }, status.diagnostics)
            // The token's roles, sorted; this server's configuration defines none, so no permission.
            #expect(status.lines.contains("roles: customer, teller"), status.diagnostics)
            #expect(status.lines.contains("permissions: none"), status.diagnostics)

            let devices = try await TerminalAppProcess.run(["devices"], home: home)
            #expect(devices.status == 0, devices.diagnostics)
            #expect(devices.lines.count == 1, devices.diagnostics)
            #expect(devices.lines.first?.hasPrefix("* dev_") == true, devices.diagnostics)
            #expect(devices.lines.first?.contains("CI phone") == true, devices.diagnostics)

            let logout = try await TerminalAppProcess.run(["logout"], home: home)
            #expect(logout.status == 0, logout.diagnostics)
            let after = try await TerminalAppProcess.run(["status"], home: home)
            #expect(after.lines.contains("signed in: no"), after.diagnostics)
            #expect(after.lines.contains { $0.hasPrefix("device: dev_") }, after.diagnostics)
        }
    }

    @Test("a wrong TOTP code: non-zero exit and one error line with the problem code and attempts left")
    func wrongCode() async throws {
        let server = try await LiveServer()
        let email = "wrong@example.com"
        let password = "correct horse battery"
        let user = try await server.services.users.create(CreateUserRequest(email: email, password: password))
        let totp = try #require(TOTP.parse(try await server.services.users.enrollTOTP(userID: user.id).otpauthUri))
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }

        try await server.run { url in
            // A code no step the server accepts (now ± 1) shows.
            let now = Date()
            let valid = Set([-30.0, 0, 30].map { totp.code(at: now.addingTimeInterval($0)) })
            let wrong = try #require(["000000", "111111", "222222", "333333"].first { !valid.contains($0) })
            let login = try await TerminalAppProcess.run(
                [
                    "login", "--server", url.absoluteString, "--email", email, "--password-stdin", "--method", "totp",
                    "--code", wrong,
                ], input: password + "\n", home: home)
            #expect(login.status != 0, login.diagnostics)
            #expect(login.stdout.isEmpty, login.diagnostics)
            let line = try #require(login.stderr.split(separator: "\n").last.map(String.init), login.diagnostics)
            #expect(line.hasPrefix("error: sca."), login.diagnostics)
            #expect(line.contains("4 attempts left"), login.diagnostics)
        }
    }

    @Test("errors before any network: malformed IBAN, no device, unknown factor, not signed in")
    func localErrors() async throws {
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let badIBAN = try await TerminalAppProcess.run(
            ["pay", "--amount", "1.00", "--currency", "EUR", "--payee", "X", "--iban", "FR7630006000011234567890180"],
            home: home)
        #expect(badIBAN.status != 0, badIBAN.diagnostics)
        #expect(badIBAN.stderr == "error: request.invalid: payee.iban is not a valid IBAN\n", badIBAN.diagnostics)

        let coldStart = try await TerminalAppProcess.run(
            ["login", "--cold-start", "--biometric", "approve", "--server", "http://127.0.0.1:9"], home: home)
        #expect(coldStart.status != 0, coldStart.diagnostics)
        #expect(coldStart.stderr.hasPrefix("error: device not activated"), coldStart.diagnostics)

        let unknownMethod = try await TerminalAppProcess.run(["login", "--email", "a@example.com", "--method", "carrier_pigeon"], home: home)
        #expect(unknownMethod.status == 64, unknownMethod.diagnostics)
        #expect(unknownMethod.stderr.contains("unknown method 'carrier_pigeon'"), unknownMethod.diagnostics)

        let signedOut = try await TerminalAppProcess.run(["devices", "--server", "http://127.0.0.1:9"], home: home)
        #expect(signedOut.status == 1, signedOut.diagnostics)
        #expect(signedOut.stderr == "error: not signed in: run 'sca login' first\n", signedOut.diagnostics)
    }

    @Test("the local authenticator stores a seed owner-only and shows the code an authenticator would")
    func authenticator() async throws {
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let uri = TOTP.otpauthURI(secret: Array(1...20), account: "totp@example.com", issuer: "Bank")
        let totp = try #require(TOTP.parse(uri))

        let add = try await TerminalAppProcess.run(["totp", "add", uri], home: home)
        #expect(add.status == 0, add.diagnostics)
        let attributes = try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent("totp.json").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let before = Date()
        let shown = try await TerminalAppProcess.run(["totp", "code"], home: home)
        let after = Date()
        #expect(shown.status == 0, shown.diagnostics)
        let code = try #require(shown.lines.first?.split(separator: " ").first.map(String.init), shown.diagnostics)
        // The run may straddle a step change.
        #expect([totp.code(at: before), totp.code(at: after)].contains(code), shown.diagnostics)
        #expect(shown.lines.first?.hasSuffix("s left)") == true, shown.diagnostics)

        let bad = try await TerminalAppProcess.run(["totp", "add", "not a seed!"], home: home)
        #expect(bad.status != 0, bad.diagnostics)
        #expect(bad.stderr == "error: totp.invalid: not a Base32 seed or an otpauth://totp/ URI\n", bad.diagnostics)
    }

    @Test("activation-code: this device's keys approve a second device; a refused code keeps the binding")
    func secondDevice() async throws {
        let server = try await LiveServer()
        let user = try await server.services.users.create(
            CreateUserRequest(email: "second@example.com", password: "correct horse battery"))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let phone = try TerminalAppProcess.temporaryHome()
        let tablet = try TerminalAppProcess.temporaryHome()
        defer {
            try? FileManager.default.removeItem(at: phone)
            try? FileManager.default.removeItem(at: tablet)
        }

        try await server.run { url in
            let activate = try await TerminalAppProcess.run(
                ["activate", activation, "--name", "Phone", "--server", url.absoluteString], home: phone)
            #expect(activate.status == 0, activate.diagnostics)

            // Binding another device is its own SCA: the device key and biometry approve it.
            let issued = try await TerminalAppProcess.run(["activation-code", "--biometric", "approve"], home: phone)
            #expect(issued.status == 0, issued.diagnostics)
            let line = try #require(issued.lines.first, issued.diagnostics)
            #expect(line.hasPrefix("activation code: "), issued.diagnostics)
            let code = String(line.dropFirst("activation code: ".count).prefix(23))

            // A code the server never issued: refused, and the phone stays bound as it was.
            let unknown = ActivationCode.generate(using: SystemRandom()).description
            let refused = try await TerminalAppProcess.run(["activate", unknown, "--name", "Phone 2"], home: phone)
            #expect(refused.status != 0, refused.diagnostics)
            #expect(refused.stderr.contains("activation.code_invalid"), refused.diagnostics)
            let coldStart = try await TerminalAppProcess.run(["login", "--cold-start", "--biometric", "approve"], home: phone)
            #expect(coldStart.status == 0, coldStart.diagnostics)

            let second = try await TerminalAppProcess.run(
                ["activate", code, "--name", "Tablet", "--server", url.absoluteString], home: tablet)
            #expect(second.status == 0, second.diagnostics)
            #expect(try await server.services.devices.devices(of: user.id).map(\.name).sorted() == ["Phone", "Tablet"])
        }
    }
}
