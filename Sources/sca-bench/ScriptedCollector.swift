import SCAClient

/// A user who never hesitates: picks the password, then the authenticator code, confirms every
/// payment and always passes the biometric gate. What it answers is fixed per flow, so the SDK's
/// loop runs exactly as in an app, minus the typing.
struct ScriptedCollector: FactorCollector {
    /// The password, for a manual login.
    var password: String?
    /// The authenticator code to type, computed for the step reserved from the user pool.
    var totpCode: String?

    func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod {
        // `methods` only has categories still missing, in the client's order; take the first
        // one this script can answer.
        for offered in methods {
            switch offered.id {
            case .password where password != nil: return .password
            case .totp where totpCode != nil: return .totp
            default: continue
            }
        }
        throw BenchError("no scripted answer for the offered methods \(methods.map(\.id.rawValue))")
    }

    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String {
        // A second try means the first was refused: the harness has a bug, not the user a typo.
        guard method == .password, attempt.number == 1, let password else {
            throw BenchError("\(method.rawValue) asked again (\(attempt.previousFailure?.rawValue ?? "no reason"))")
        }
        return password
    }

    func code(
        for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
        resend: @escaping @Sendable () async throws -> CodeSentResponse
    ) async throws -> String {
        guard method == .totp, attempt.number == 1, let totpCode else {
            throw BenchError("\(method.rawValue) asked again (\(attempt.previousFailure?.rawValue ?? "no reason"))")
        }
        return totpCode
    }

    func confirm(_ display: TransactionDisplay) async throws -> Bool { true }

    func passBiometricGate(reason: String) async throws -> Bool { true }
}
