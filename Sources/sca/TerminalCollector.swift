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
                "\(wanted.rawValue) is not offered here (offered: \(offered.map(\.rawValue).joined(separator: ", ")))")
        }
        Terminal.say("Choose a factor:")
        for (index, method) in offered.enumerated() {
            Terminal.say("  \(index + 1)) \(Self.label(method))")
        }
        while true {
            guard let line = Terminal.ask("Choice [1-\(offered.count), or 'cancel'] (1): ") else {
                throw AppError.inputClosed("a factor was chosen")
            }
            let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
            if answer == "cancel" { throw SCAClientError.cancelled }
            if answer.isEmpty, let first = offered.first { return first }
            if let number = Int(answer), offered.indices.contains(number - 1) { return offered[number - 1] }
            if let named = offered.first(where: { $0.rawValue == answer }) { return named }
            Terminal.say("Type a number from 1 to \(offered.count).")
        }
    }

    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
        await spinner.stop()
        if method == .password, let password = answers.password {
            guard takeOnce(\.usedPassword) else { throw rejected(attempt, method: method) }
            return password
        }
        report(attempt, method: method)
        let name = method == .pin ? "PIN" : "Password"
        while true {
            guard let line = Terminal.askSecret("\(name): ") else { throw AppError.inputClosed("the \(name.lowercased())") }
            if !line.isEmpty {
                await spinner.start("Checking")
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
            Terminal.say("A code was sent to \(delivery.sentTo).")
        } else if method.isDeliveredCode {
            // The server would not send another yet (429): a code went out moments ago, but after
            // a failed round it no longer counts, so the user may need a new one.
            Terminal.say("No new code was sent yet: one went out moments ago. Type 'r' to ask for a new one.")
        }
        let prompt = method.isDeliveredCode ? "Code (r to resend, or 'cancel'): " : "Authenticator code (or 'cancel'): "
        while true {
            guard let line = Terminal.ask(prompt) else { throw AppError.inputClosed("the code") }
            let answer = line.trimmingCharacters(in: .whitespaces)
            switch answer.lowercased() {
            case "":
                continue
            case "cancel":
                throw SCAClientError.cancelled
            case "r" where method.isDeliveredCode:
                do {
                    let sent = try await spinner.during("Sending a new code") { try await resend() }
                    Terminal.say("A new code was sent to \(sent.sentTo).")
                } catch let error as SCAClientError {
                    // Too soon, or the sending limit: say so, with the wait when the server gave one.
                    if error.code == .server, let wait = error.problem?.retryAfter {
                        Terminal.say("\(error.description); a new code can be sent in \(wait) s")
                    } else {
                        Terminal.say(error.description)
                    }
                }
            default:
                await spinner.start("Checking")
                return answer.replacingOccurrences(of: " ", with: "")
            }
        }
    }

    func confirm(_ display: TransactionDisplay) async throws -> Bool {
        await spinner.stop()
        if answers.confirm { return true }
        Terminal.say("Payment to authorise:")
        Terminal.say("  amount  \(Terminal.shown(display.amount)) \(Terminal.shown(display.currency))")
        Terminal.say("  payee   \(Terminal.shown(display.payee))")
        // The whole account, in groups of four, as `sca approve` and the consent page show it.
        if let iban = display.iban {
            let whole = iban.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            Terminal.say("  IBAN    \(Terminal.shown(whole ? OperationWording.groupedIBAN(iban) : iban))")
        }
        guard let line = Terminal.ask("Authorise this payment? [y/N] ") else {
            Terminal.say("No answer on standard input (scripts pass --yes): not authorised.")
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
        Terminal.say(reason)
        guard let line = Terminal.ask("Touch the sensor: press Enter to unlock the biometry key, or type 'cancel' ") else {
            Terminal.say("No answer on standard input: biometry not used.")
            return false
        }
        if line.trimmingCharacters(in: .whitespaces).lowercased() == "cancel" {
            Terminal.say("Biometry cancelled: another factor will be asked.")
            return false
        }
        await spinner.start("Signing")
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
        var text: String
        switch attempt.previousFailure {
        case .some(.proofRejected):
            switch method {
            case .password: text = "wrong password"
            case .pin: text = "wrong PIN"
            default: text = "wrong code"
            }
        case .some(.authenticationFailed):
            text = "authentication failed: a password or code was wrong"
        case .some(let other):
            text = "not accepted (\(other.rawValue))"
        case .none:
            text = "not accepted"
        }
        if let remaining = attempt.remainingAttempts {
            text += ", \(remaining) attempt\(remaining == 1 ? "" : "s") left"
        }
        return text
    }

    static func label(_ method: AuthenticationMethod) -> String {
        switch method {
        case .password: "password"
        case .pin: "PIN"
        case .totp: "authenticator app code (totp)"
        case .smsOTP: "code by SMS (sms_otp)"
        case .emailOTP: "code by e-mail (email_otp)"
        case .deviceKey: "this device's key"
        case .biometricKey: "biometry on this device"
        case .passkey, .passkeyUserVerified: "a passkey (not available in a terminal)"
        }
    }
}
