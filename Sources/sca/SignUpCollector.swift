import Foundation
import SCAClient
import SCACore
import Synchronization

/// The terminal collector of `sca signup`: the codes come from the `--code` values, in the
/// order they are asked (then from the terminal), and a new account's password is the
/// `--password-stdin` line or asked twice, hidden.
final class SignUpCollector: FactorCollector {
    let terminal: TerminalCollector
    /// The `--code` values not used yet, in order.
    private let codes: Mutex<[String]>
    private let newPassword: String?
    private let created = Mutex(false)
    /// The code that signs up or in: `email_otp`, or `sms_otp` for `--phone`.
    private let signUpCode: AuthenticationMethod

    init(terminal: TerminalCollector, codes: [String], newPassword: String?, signUpCode: AuthenticationMethod = .emailOTP) {
        self.terminal = terminal
        self.signUpCode = signUpCode
        self.codes = Mutex(codes)
        self.newPassword = newPassword
    }

    /// Whether the flow created the account.
    var signedUp: Bool { created.withLock { $0 } }

    func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
        // The address's code first (e-mail, or SMS for a phone): it is what signs up or in.
        if methods.contains(where: { $0.id == signUpCode }) { return signUpCode }
        return try await terminal.chooseMethod(from: methods, for: challenge)
    }

    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
        try await terminal.secret(for: method, attempt: attempt)
    }

    func code(
        for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
        resend: @escaping @Sendable () async throws -> CodeSentResponse
    ) async throws -> String {
        // Every code the flow asks for (the sign-up's, a retry, the sign-in's after it), in order.
        if let code = codes.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            return code
        }
        return try await terminal.code(for: method, delivery: delivery, attempt: attempt, resend: resend)
    }

    func confirm(_ display: TransactionDisplay) async throws -> Bool {
        try await terminal.confirm(display)
    }

    func passBiometricGate(reason: String) async throws -> Bool {
        try await terminal.passBiometricGate(reason: reason)
    }

    func newSecret(for email: String) async throws -> NewSecret {
        created.withLock { $0 = true }
        if let newPassword { return NewSecret(method: .password, value: newPassword) }
        let words = Terminal.words
        Terminal.say(
            words.text(
                "terminal.signup.choosePassword", ["account": email, "minimum": String(InputRules.passwordLength.lowerBound)]))
        while true {
            guard let first = Terminal.askSecret(words.text("terminal.signup.newPassword")) else {
                throw AppError.inputClosed(.newPassword)
            }
            guard let second = Terminal.askSecret(words.text("terminal.signup.again")) else {
                throw AppError.inputClosed(.newPassword)
            }
            if first == second, !first.isEmpty { return NewSecret(method: .password, value: first) }
            Terminal.say(words.text("terminal.signup.mismatch"))
        }
    }
}
