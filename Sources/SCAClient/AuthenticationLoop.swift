import Foundation
import SCACore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Phases 2 and 3 for one challenge: pick a method, collect the factor, submit it, react to the
/// answer, until the server answers `complete`.
///
/// The loop never decides by itself that the user is done; it only knows what is still worth
/// asking. What it does with each answer follows the server's contract (openapi.yaml):
/// `partial` → continue with the categories the server lists; `401 sca.proof_rejected` → ask the
/// same factor again; `401 sca.authentication_failed` → everything collected was discarded,
/// collect again; `422 method.not_offered` → use another method; `429 sca.attempts_in_progress`
/// → wait and resubmit; the rest ends the flow.
struct AuthenticationLoop: Sendable {
    let transport: APITransport
    let keyStore: any DeviceKeyStore
    let configuration: SCAClient.Configuration
    let collector: any FactorCollector
    let challenge: ChallengeResponse
    /// The bound device, when the challenge names it; device methods are used only then.
    let device: DeviceBinding?

    /// Resubmissions after `429 sca.attempts_in_progress` before the problem is given up on: the
    /// server answers it only while other attempts are being checked, which takes moments.
    static let maximumResubmissions = 20

    /// Why a method's last try did not count, for its next ``AttemptContext``.
    private struct Failure {
        var code: ProblemCode
        var remainingAttempts: Int?
    }

    /// What the loop knows so far in this flow.
    private struct State {
        /// The challenge as last described: a `partial` answer may offer methods it did not
        /// before (a sign-up-or-in shows a known user's methods once the code is proven).
        var challenge: ChallengeResponse
        var satisfied: Set<Category>
        var prefill: [AuthenticationMethod: String]
        var unusable: Set<AuthenticationMethod> = []
        var tries: [AuthenticationMethod: Int] = [:]
        var failures: [AuthenticationMethod: Failure] = [:]
        /// The method to ask again, without choosing, after its proof was rejected.
        var retry: AuthenticationMethod?
        /// Methods submitted since the last deferred verdict.
        var round: [AuthenticationMethod] = []
        /// Deferred verdicts that failed with a device signature among the proofs.
        var failedRoundsWithDeviceSignature = 0

        func attempt(for method: AuthenticationMethod) -> AttemptContext {
            AttemptContext(
                number: tries[method, default: 0] + 1, remainingAttempts: failures[method]?.remainingAttempts,
                previousFailure: failures[method]?.code)
        }
    }

    /// Runs the loop; a cancellation by the user (or of the task) cancels the challenge on the
    /// server.
    /// - Throws: see ``SCAClient/authenticate(challenge:using:prefill:)``.
    func run(prefill: [AuthenticationMethod: String]) async throws -> TokenResponse {
        do {
            return try await loop(prefill: prefill)
        } catch let error where Self.isCancellation(error) {
            await cancelOnServer()
            throw SCAClientError.cancelled
        }
    }

    private func loop(prefill: [AuthenticationMethod: String]) async throws -> TokenResponse {
        var state = State(challenge: challenge, satisfied: Set(challenge.satisfiedCategories), prefill: prefill)
        if challenge.operation == .payment {
            // The user approves exactly what every proof will be bound to. A payment whose amount
            // and payee cannot be shown cannot be approved, nor one whose payee could show other
            // than it reads (a right-to-left override, invisible characters: ``DisplayText``).
            guard let display = challenge.display,
                DisplayText.isAcceptable(display.payee, maxLength: DisplayText.maxPayeeNameLength),
                try await collector.confirm(display)
            else {
                await cancelOnServer()
                throw SCAClientError.transactionDeclined
            }
        }
        while true {
            try Task.checkCancellation()
            let candidates = candidates(state)
            guard !candidates.isEmpty else {
                throw SCAClientError.noUsableMethod(missingCategories: max(0, challenge.requiredCategories - state.satisfied.count))
            }
            let method = try await pick(from: candidates, state: &state)
            guard let proof = try await collect(method, state: &state) else { continue }
            state.round.append(method)
            do {
                let answer = try await submit(proof)
                // A sign-up's `enrolment` ends the loop too, with its enrolment token.
                if answer.status == .complete || answer.status == .enrolment {
                    guard let tokens = answer.issuedTokens else { throw SCAClientError.unexpectedResponse(status: 200) }
                    return tokens
                }
                state.satisfied = Set(answer.satisfiedCategories)
                state.failures[method] = nil
                if let methods = answer.methods, methods != state.challenge.methods {
                    // New methods (and their passkey options) with the challenge's description.
                    state.challenge = try await transport.send(.get, challengePath)
                }
                // A proof the server took without counting its category would be asked again and
                // again; never offer it a second time.
                if !state.satisfied.contains(method.category) { state.unusable.insert(method) }
            } catch let error as SCAClientError where error.code == .server && error.problemCode == .proofRejected {
                // Immediate verdict: this factor was wrong. Ask it again, never from the prefill.
                state.prefill[method] = nil
                if method.isDeviceSignature {
                    // A key that signed wrong signs wrong again, and each try counts against the
                    // device: fall back to another method instead.
                    state.unusable.insert(method)
                } else {
                    state.failures[method] = Failure(code: .proofRejected, remainingAttempts: error.problem?.remainingAttempts)
                    state.retry = method
                }
            } catch let error as SCAClientError where error.code == .server && error.problemCode == .authenticationFailed {
                // Deferred verdict: some factor was wrong and the server discarded every proof.
                state.satisfied = []
                state.prefill = [:]
                // Signing again needs no one, so a wrong key would burn the user's attempts by
                // itself: stop signing when the signatures alone failed, or failed twice.
                let signed = state.round.filter(\.isDeviceSignature)
                if !signed.isEmpty {
                    state.failedRoundsWithDeviceSignature += 1
                    if signed.count == state.round.count || state.failedRoundsWithDeviceSignature >= 2 {
                        state.unusable.formUnion(signed)
                    }
                }
                state.round = []
                for offered in state.challenge.methods {
                    state.failures[offered.id] = Failure(code: .authenticationFailed, remainingAttempts: error.problem?.remainingAttempts)
                }
            } catch let error as SCAClientError where error.code == .server && error.problemCode == .methodNotOffered {
                state.unusable.insert(method)
            }
        }
    }

    /// Offered methods of categories still missing, minus those found unusable, in the configured
    /// order. Device methods only for the bound device the challenge names.
    private func candidates(_ state: State) -> [OfferedMethod] {
        configuration.methodOrder.compactMap { method in
            guard let offered = state.challenge.methods.first(where: { $0.id == method }),
                !state.satisfied.contains(offered.category), !state.unusable.contains(method)
            else { return nil }
            if method.isDeviceSignature {
                guard let device else { return nil }
                if method == .biometricKey && !device.hasBiometryKey { return nil }
            }
            return offered
        }
    }

    /// The method to try next: the one just rejected; else a device key (used without asking);
    /// else a method whose secret was typed beforehand; else the user's choice.
    private func pick(from candidates: [OfferedMethod], state: inout State) async throws -> AuthenticationMethod {
        defer { state.retry = nil }
        if let retry = state.retry, candidates.contains(where: { $0.id == retry }) { return retry }
        if let first = candidates.first, first.id.isDeviceSignature { return first.id }
        if let prefilled = candidates.first(where: { state.prefill[$0.id] != nil }) { return prefilled.id }
        let choice = try await collector.chooseMethod(from: candidates, for: state.challenge)
        guard candidates.contains(where: { $0.id == choice }) else {
            throw SCAClientError.noUsableMethod(missingCategories: max(0, challenge.requiredCategories - state.satisfied.count))
        }
        return choice
    }

    /// The proof for `method`, or nil when the method turned out unusable (biometric gate not
    /// passed, code channel not offered): the loop then tries another.
    private func collect(_ method: AuthenticationMethod, state: inout State) async throws -> ProofRequest? {
        let attempt = state.attempt(for: method)
        let credential: String
        switch method {
        case .deviceKey, .biometricKey:
            guard let device else {
                state.unusable.insert(method)
                return nil
            }
            if method == .biometricKey {
                guard try await collector.passBiometricGate(reason: biometricReason) else {
                    state.unusable.insert(method)
                    return nil
                }
            }
            let payload = DeviceSignature.payload(
                method: method, challengeID: challenge.challengeId, nonce: challenge.nonce,
                operation: challenge.operation, transactionDigest: challenge.transactionDigest)
            let signature = try await keyStore.sign(payload, with: method == .deviceKey ? .possession : .biometry)
            state.tries[method, default: 0] += 1
            return ProofRequest(method: method, deviceId: device.deviceId, signature: Base64URL.encode(signature))
        case .passkey, .passkeyUserVerified:
            // A user-verified assertion proves two categories; the server's answer says which.
            guard method == .passkey, let options = state.challenge.passkey,
                let assertion = try await collector.passkeyAssertion(for: options, challenge: state.challenge)
            else {
                state.unusable.insert(method)
                return nil
            }
            state.tries[method, default: 0] += 1
            return ProofRequest(method: .passkey, assertion: assertion)
        case .password, .pin:
            if let typed = state.prefill[method] {
                credential = typed
            } else {
                credential = try await collector.secret(for: method, attempt: attempt)
            }
        case .totp:
            if let typed = state.prefill[method] {
                credential = typed
            } else {
                credential = try await collector.code(for: method, delivery: nil, attempt: attempt, resend: resend(method))
            }
        case .smsOTP, .emailOTP:
            var delivery: CodeSentResponse?
            // After a rejected code the one sent is still the one to type (the user may ask for
            // another); otherwise this is a new collection and needs a new code.
            if state.failures[method]?.code != .proofRejected {
                do {
                    delivery = try await sendCode(method)
                } catch let error as SCAClientError where error.code == .server && error.problemCode == .otpResendTooSoon {
                    // A code was sent moments ago: the user has it, or asks again through `resend`.
                    delivery = nil
                } catch let error as SCAClientError where error.code == .server && error.problemCode == .methodNotOffered {
                    state.unusable.insert(method)
                    return nil
                }
            }
            credential = try await collector.code(for: method, delivery: delivery, attempt: attempt, resend: resend(method))
        }
        state.tries[method, default: 0] += 1
        return ProofRequest(method: method, credential: credential)
    }

    /// Submits a proof, waiting and resubmitting while the server checks other attempts.
    private func submit(_ proof: ProofRequest) async throws -> ProofResponse {
        var resubmissions = 0
        while true {
            do {
                return try await transport.send(.post, "\(challengePath)/proofs", body: proof)
            } catch let error as SCAClientError
                where error.code == .server && error.problemCode == .attemptsInProgress
                && resubmissions < Self.maximumResubmissions
            {
                resubmissions += 1
                let wait = min(error.problem?.retryAfter.map(TimeInterval.init) ?? configuration.maximumWait, configuration.maximumWait)
                try await Task.sleep(for: .milliseconds(Int(max(0, wait) * 1000)))
            }
        }
    }

    private func sendCode(_ method: AuthenticationMethod) async throws -> CodeSentResponse {
        try await transport.send(.post, "\(challengePath)/otp", body: SendCodeRequest(method: method))
    }

    /// The collector's way to ask for another code; the server answers whether it may.
    private func resend(_ method: AuthenticationMethod) -> @Sendable () async throws -> CodeSentResponse {
        let transport = transport
        let path = "\(challengePath)/otp"
        return {
            try await transport.send(.post, path, body: SendCodeRequest(method: method))
        }
    }

    /// The challenge's resource.
    private var challengePath: String { "v1/challenges/\(APITransport.escape(challenge.challengeId))" }

    /// One line for the biometric prompt: what the signature approves.
    private var biometricReason: String {
        if let display = challenge.display {
            return "Approve paying \(display.amount) \(display.currency) to \(display.payee)"
        }
        switch challenge.operation {
        case .login: return "Sign in"
        case .payment: return "Approve the payment"
        case .settingsChange: return "Approve the change of your settings"
        case .accountInfo: return "Show your accounts"
        case .deviceActivation: return "Approve activating a new device"
        case .beneficiaryAdd: return "Approve adding a trusted payee"
        case .enrolment: return "Finish setting up your account"
        case .passwordReset: return "Approve resetting your password"
        }
    }

    /// Cancels the challenge on the server, ignoring failures (it expires anyway). Runs in its own
    /// task, so that a cancelled caller's cancellation does not cancel the request too.
    private func cancelOnServer() async {
        let transport = transport
        let path = challengePath
        await Task {
            let _: ChallengeResponse? = try? await transport.send(.delete, path)
        }.value
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if let error = error as? SCAClientError { return error.code == .cancelled }
        if error is CancellationError { return true }
        if let error = error as? URLError, error.code == .cancelled { return true }
        return false
    }
}
