import ArgumentParser
import SCAClient
import SCACore

/// Answers to the factor prompts given up front, so scripts run without a terminal.
struct FactorOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Second factor to use when a choice is offered: totp, sms_otp, email_otp, pin, password.", valueName: "method"))
    var method: String?

    @Option(help: ArgumentHelp("The code for that factor (a wrong one fails instead of asking again).", valueName: "code"))
    var code: String?

    @Flag(help: "Read the password from the first line of standard input.")
    var passwordStdin = false

    @Option(help: ArgumentHelp("Answer the biometric prompt: ask, approve or cancel.", valueName: "answer"))
    var biometric: BiometricAnswer = .ask

    func validate() throws {
        if let method, parsedMethod(method) == nil {
            let known = AuthenticationMethod.allCases.filter(Self.isTyped).map(\.rawValue)
            throw ValidationError(
                Terminal.words.text("terminal.failure.unknownMethod", ["method": method, "methods": known.joined(separator: ", ")]))
        }
    }

    /// The collector for this run. Reads the password line now, so it is the first line of
    /// standard input whatever the flow asks later.
    func collector(confirmPayments: Bool = false, spinner: Spinner) throws -> TerminalCollector {
        var password: String?
        if passwordStdin {
            guard let line = readLine(strippingNewline: true) else { throw AppError.inputClosed(.password) }
            password = line
        }
        let answers = TerminalCollector.Answers(
            method: method.flatMap(parsedMethod), code: code, password: password, biometric: biometric,
            confirm: confirmPayments)
        return TerminalCollector(answers: answers, spinner: spinner)
    }

    /// A passkey needs a platform authenticator, which a terminal does not have.
    private static func isTyped(_ method: AuthenticationMethod) -> Bool {
        !method.isDeviceSignature && method.isProvable && method != .passkey
    }

    /// Device signatures are never chosen by hand: the SDK uses them on its own.
    private func parsedMethod(_ text: String) -> AuthenticationMethod? {
        guard let method = AuthenticationMethod(rawValue: text.lowercased()), Self.isTyped(method) else { return nil }
        return method
    }
}
