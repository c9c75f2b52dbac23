import SCAClient
import Synchronization

/// A collector that plays a user from a script and records every question it was asked.
final class ScriptedCollector: FactorCollector {
    /// One question the loop asked.
    enum Event: Sendable, Equatable {
        case chooseMethod([AuthenticationMethod])
        case secret(AuthenticationMethod, AttemptContext)
        case code(AuthenticationMethod, delivered: Bool, AttemptContext)
        case confirm(TransactionDisplay)
        case biometricGate(String)
    }

    /// The user's answers.
    struct Script: Sendable {
        /// Answers to `chooseMethod`, in order.
        var choices: [AuthenticationMethod] = []
        /// Answers to `secret`, per method, in order.
        var secrets: [AuthenticationMethod: [String]] = [:]
        /// Answers to `code`: the method and the attempt, to give a wrong code first.
        var code: @Sendable (AuthenticationMethod, AttemptContext) throws -> String = { method, _ in
            throw ScriptError.unexpected("code for \(method.rawValue)")
        }
        var confirms = true
        var passesBiometricGate = true
        /// Asked for this method's secret or code, the user cancels.
        var cancelsAt: AuthenticationMethod?
    }

    /// The loop asked something the script has no answer for.
    struct ScriptError: Error, CustomStringConvertible {
        var description: String
        static func unexpected(_ question: String) -> ScriptError { ScriptError(description: "unexpected question: \(question)") }
    }

    private let state: Mutex<(script: Script, events: [Event])>

    init(_ script: Script) {
        state = Mutex((script, []))
    }

    /// Every question asked so far, in order.
    var events: [Event] { state.withLock { $0.events } }

    /// The methods whose secret was asked.
    var secretsAsked: [AuthenticationMethod] {
        events.compactMap { if case .secret(let method, _) = $0 { method } else { nil } }
    }

    /// The attempt contexts of the codes asked for `method`.
    func codeAttempts(_ method: AuthenticationMethod) -> [AttemptContext] {
        events.compactMap { if case .code(method, _, let attempt) = $0 { attempt } else { nil } }
    }

    /// The attempt contexts of the secrets asked for `method`.
    func secretAttempts(_ method: AuthenticationMethod) -> [AttemptContext] {
        events.compactMap { if case .secret(method, let attempt) = $0 { attempt } else { nil } }
    }

    func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
        try state.withLock { state in
            state.events.append(.chooseMethod(methods.map(\.id)))
            guard !state.script.choices.isEmpty else { throw ScriptError.unexpected("chooseMethod") }
            return state.script.choices.removeFirst()
        }
    }

    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
        try state.withLock { state in
            state.events.append(.secret(method, attempt))
            if state.script.cancelsAt == method { throw SCAClientError.cancelled }
            guard var answers = state.script.secrets[method], !answers.isEmpty else {
                throw ScriptError.unexpected("secret for \(method.rawValue)")
            }
            let answer = answers.removeFirst()
            state.script.secrets[method] = answers
            return answer
        }
    }

    func code(
        for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
        resend: @escaping @Sendable () async throws -> CodeSentResponse
    ) async throws -> String {
        let (provider, cancels) = state.withLock { state in
            state.events.append(.code(method, delivered: delivery != nil, attempt))
            return (state.script.code, state.script.cancelsAt == method)
        }
        if cancels { throw SCAClientError.cancelled }
        return try provider(method, attempt)
    }

    func confirm(_ display: TransactionDisplay) async throws -> Bool {
        state.withLock { state in
            state.events.append(.confirm(display))
            return state.script.confirms
        }
    }

    func passBiometricGate(reason: String) async throws -> Bool {
        state.withLock { state in
            state.events.append(.biometricGate(reason))
            return state.script.passesBiometricGate
        }
    }
}
