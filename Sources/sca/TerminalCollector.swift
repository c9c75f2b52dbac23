import Foundation
import SCAClient
import SCACore
import Synchronization

/// The SDK's `FactorCollector` on a terminal: it lists methods, asks for secrets and codes,
/// shows the payment and plays the biometric sensor. Answers given as flags are used once;
/// if the SDK asks again, that answer was wrong, and a script gets an error rather than a
/// prompt it cannot answer.
final class TerminalCollector: FactorCollector {
    /// Answers given up front (flags and the password line).
    struct Answers: Sendable {
        var method: AuthenticationMethod?
        var code: String?
        var password: String?
        var biometric: BiometricAnswer
        /// `--yes`: the payment is confirmed without asking.
        var confirm: Bool
    }

    /// What this flow has used and told so far.
    private struct State {
        var usedPassword = false
        var usedCode = false
        /// The last failure reported, so a failed round is told once, not once per prompt.
        var lastReport: String?
    }

    let answers: Answers
    private let spinner: Spinner
    private let state = Mutex(State())
    private let words = Terminal.words

    init(answers: Answers, spinner: Spinner) {
        self.answers = answers
        self.spinner = spinner
    }

    // MARK: FactorCollector

    func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
        await spinner.stop()
        let offered = methods.map(\.id)
        let wanted = answers.method.flatMap { offered.contains($0) ? $0 : nil }
        // Knowledge first, as banking apps do: the password, then a second factor.
        if let wanted, wanted.category == .knowledge { return wanted }
        if offered.contains(.password) { return .password }
        if let wanted { return wanted }
        if offered.count == 1, let only = offered.first { return only }
        if let wanted = answers.method {
            // A script named a factor this challenge does not offer: asking would hang it.
            throw AppError(
                "method.not_offered",
                words.text(
                    "terminal.failure.methodNotOffered",
                    ["method": wanted.rawValue, "offered": offered.map(\.rawValue).joined(separator: ", ")]))
        }
        Terminal.say(words.text("terminal.factor.choose"))
        for (index, method) in offered.enumerated() {
            Terminal.say("  \(index + 1)) \(Self.label(method))")
        }
        let count = ["count": String(offered.count)]
        while true {
            guard let line = Terminal.ask(words.text("terminal.factor.choicePrompt", count)) else {
                throw AppError.inputClosed(.factor)
            }
            let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
            if answer == "cancel" { throw SCAClientError.cancelled }
            if answer.isEmpty, let first = offered.first { return first }
            if let number = Int(answer), offered.indices.contains(number - 1) { return offered[number - 1] }
            if let named = offered.first(where: { $0.rawValue == answer }) { return named }
            Terminal.say(words.text("terminal.factor.typeNumber", count))
        }
    }

    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
        await spinner.stop()
        if method == .password, let password = answers.password {
            guard takeOnce(\.usedPassword) else { throw rejected(attempt, method: method) }
            return password
        }
        report(attempt, method: method)
        let isPIN = method == .pin
        let prompt = words.text(isPIN ? "terminal.factor.pinPrompt" : "terminal.factor.passwordPrompt")
        while true {
            guard let line = Terminal.askSecret(prompt) else { throw AppError.inputClosed(isPIN ? .pin : .password) }
            if !line.isEmpty {
                await spinner.start(words.text("terminal.spinner.checking"))
                return line
            }
        }
    }

    func code(
        for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
        resend: @escaping @Sendable () async throws -> CodeSentResponse
    ) async throws -> String {
        await spinner.stop()
        if let code = answers.code {
            guard takeOnce(\.usedCode) else { throw rejected(attempt, method: method) }
            return code
        }
        report(attempt, method: method)
        if let delivery {
            Terminal.say(words.text("terminal.factor.codeSent", ["destination": delivery.sentTo]))
        } else if method.isDeliveredCode {
            // The server would not send another yet (429): a code went out moments ago, but after
            // a failed round it no longer counts, so the user may need a new one.
            Terminal.say(words.text("terminal.factor.noNewCode"))
        }
        let prompt = words.text(method.isDeliveredCode ? "terminal.factor.codePrompt" : "terminal.factor.authenticatorPrompt")
        while true {
            guard let line = Terminal.ask(prompt) else { throw AppError.inputClosed(.code) }
            let answer = line.trimmingCharacters(in: .whitespaces)
            switch answer.lowercased() {
            case "":
                continue
            case "cancel":
                throw SCAClientError.cancelled
            case "r" where method.isDeliveredCode:
                do {
                    let sent = try await spinner.during(words.text("terminal.spinner.sendingCode")) { try await resend() }
                    Terminal.say(words.text("terminal.factor.newCodeSent", ["destination": sent.sentTo]))
                } catch let error as SCAClientError {
                    // Too soon, or the sending limit: say so, with the wait when the server gave one.
                    let failure = FailureLine.text(of: error)
                    if error.code == .server, let wait = error.problem?.retryAfter {
                        Terminal.say(words.text("terminal.factor.resendWait", ["error": failure, "seconds": String(wait)]))
                    } else {
                        Terminal.say(failure)
                    }
                }
            default:
                await spinner.start(words.text("terminal.spinner.checking"))
                return answer.replacingOccurrences(of: " ", with: "")
            }
        }
    }

    func confirm(_ display: TransactionDisplay) async throws -> Bool {
        await spinner.stop()
        if answers.confirm { return true }
        Terminal.say(words.text("terminal.payment.title"))
        // Digit for digit, as the language writes amounts; a form the app does not recognise is
        // shown as the server sent it, so an amount is never hidden. Escaped before it is
        // formatted: the language's own no-break spaces are not a trick to show.
        let amount = words.amount(Terminal.shown(display.amount), currency: Terminal.shown(display.currency))
        Terminal.say(words.text("terminal.payment.amount", ["amount": amount]))
        Terminal.say(words.text("terminal.payment.payee", ["payee": Terminal.shown(display.payee)]))
        // The whole account, in groups of four, as `sca approve` and the consent page show it.
        if let iban = display.iban {
            let whole = iban.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            Terminal.say(words.text("terminal.payment.iban", ["iban": Terminal.shown(whole ? words.iban(iban) : iban)]))
        }
        guard let line = Terminal.ask(words.text("terminal.payment.confirm")) else {
            Terminal.say(words.text("terminal.payment.noAnswer"))
            return false
        }
        let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    func passBiometricGate(reason: String) async throws -> Bool {
        await spinner.stop()
        switch answers.biometric {
        case .approve: return true
        case .cancel: return false
        case .ask: break
        }
        // The SDK's words for what is approved: it reads them from the server's challenge.
        Terminal.say(reason)
        guard let line = Terminal.ask(words.text("terminal.biometry.prompt")) else {
            Terminal.say(words.text("terminal.biometry.noAnswer"))
            return false
        }
        if line.trimmingCharacters(in: .whitespaces).lowercased() == "cancel" {
            Terminal.say(words.text("terminal.biometry.cancelled"))
            return false
        }
        await spinner.start(words.text("terminal.spinner.signing"))
        return true
    }

    // MARK: Helpers

    /// True the first time only.
    private func takeOnce(_ flag: WritableKeyPath<State, Bool>) -> Bool {
        state.withLock { state in
            defer { state[keyPath: flag] = true }
            return !state[keyPath: flag]
        }
    }

    /// Tells the user why they are asked again, once per failed round.
    private func report(_ attempt: AttemptContext, method: AuthenticationMethod) {
        guard attempt.previousFailure != nil else { return }
        let line = Self.failureText(attempt, method: method)
        let key = "\(line)#\(attempt.number)"
        let isNew = state.withLock { state in
            defer { state.lastReport = key }
            return state.lastReport != key
        }
        if isNew { Terminal.say(line) }
    }

    /// A scripted answer the server did not accept: end the run with the server's verdict.
    private func rejected(_ attempt: AttemptContext, method: AuthenticationMethod) -> AppError {
        let code = attempt.previousFailure ?? .authenticationFailed
        return AppError(code.rawValue, Self.failureText(attempt, method: method))
    }

    /// "wrong code, 3 attempts left". In deferred mode the server does not say which element
    /// was wrong (RTS art. 4), so neither does the app.
    static func failureText(_ attempt: AttemptContext, method: AuthenticationMethod) -> String {
        let words = Terminal.words
        let text: String
        switch attempt.previousFailure {
        case .some(.proofRejected):
            switch method {
            case .password: text = words.text("terminal.failure.wrongPassword")
            case .pin: text = words.text("terminal.failure.wrongPIN")
            default: text = words.text("terminal.failure.wrongCode")
            }
        case .some(.authenticationFailed):
            text = words.text("terminal.failure.authenticationFailed")
        case .some(let other):
            text = words.text("terminal.failure.notAcceptedCode", ["code": other.rawValue])
        case .none:
            text = words.text("terminal.failure.notAccepted")
        }
        guard let remaining = attempt.remainingAttempts else { return text }
        return words.text("terminal.failure.attemptsLeft", count: remaining, ["text": text])
    }

    /// A method as the factor menu names it.
    static func label(_ method: AuthenticationMethod) -> String {
        Terminal.words.text("terminal.method.\(method.rawValue)")
    }
}
