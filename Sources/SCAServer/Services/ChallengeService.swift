import Foundation
import Logging
import SCACore
import SCAStorage

/// The three phases: open a challenge, take proofs one at a time, and issue tokens when enough
/// categories are proven. The client never decides it is done; this service does.
public struct ChallengeService: Sendable {
    let store: any SCAStore
    let verifier: FactorVerifier
    let tokens: TokenService
    let codes: CodeService
    let lockout: LockoutService
    let risk: RiskPolicy
    let configuration: ServerConfiguration
    let runtime: ServerRuntime
    let logger: Logger
    let audit: AuditTrail
    /// Challenges opened per client address (issue 15).
    let limiter: RateLimiter
    /// Transaction monitoring and exemptions (issue 12).
    let riskEngine: RiskService
    /// Passkeys as a proof (issue 11).
    let passkeyProofs: PasskeyProofs

    /// Compare-and-set retries before giving up on a challenge under heavy contention.
    private static let maxUpdateRetries = 32

    // MARK: Phase 1

    /// An unknown user gets a decoy: the configured default profile (`decoyMethods`) filtered
    /// by the operation's policy as a real user's enrolment is, and masks that follow what was
    /// typed (``DecoySubject``).
    /// - Throws: `Problem.invalidRequest` for a malformed request; nothing is written then.
    ///   `Problem.rateLimited` when the client address has opened too many challenges (every
    ///   request counts, well-formed or not).
    ///
    /// An exemption (issue 12) is considered only for a caller presenting `authorization`: a
    /// live session token (`login` or `account_info`) of the same user. An exempted challenge
    /// is answered completed, with `requiredCategories` 0 and its tokens.
    /// - Throws: also `Problem.riskRefused` when monitoring refuses; 401 for a bad token and
    ///   403 `auth.forbidden` for another user's.
    /// - Parameters:
    ///   - signUpOrIn: opened by `POST /v1/signup-or-in` (issue 17): an unknown user's decoy
    ///     offers the e-mail code whatever its profile, sign-up allowed or not.
    ///   - signUpAddress: for an unknown user, the address a new user may be created for once
    ///     its e-mail code is proven (``SignUpService``); nil when sign-up is not allowed.
    ///   - admitted: counted already in another budget (an operation's, issue 10), so not in
    ///     the client address's challenge budget.
    public func create(
        _ request: CreateChallengeRequest, authorization: String? = nil, signUpOrIn: Bool = false,
        signUpAddress: String? = nil, admitted: Bool = false
    ) async throws -> ChallengeResponse {
        if !admitted { try await limiter.admitChallenge() }
        // Only a sign-up's answer carries an enrolment token; no challenge is opened for one.
        guard request.operation != .enrolment else { throw Problem.invalidRequest("operation enrolment cannot be challenged") }
        let transaction = try Self.validatedTransaction(request)
        let beneficiary = try Self.validatedBeneficiary(request)
        let discoverable = try discoverableLogin(request)
        var user = discoverable ? nil : try await findUser(request.user)
        // An unfinished sign-up (nothing but the mailbox) resumes as a sign-up (issue 17).
        if signUpAddress != nil, let found = user, try await awaitsSecondElement(found) { user = nil }
        let device = try await namedDevice(request.device, of: user)
        var hasSession = false
        if authorization != nil {
            let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo], consume: false)
            guard let user, claims.sub.value == user.id else { throw Problem.forbidden }
            hasSession = true
        }
        let policy = configuration.policy(for: request.operation)
        var enrolled = discoverable ? [.passkey] : user?.enrolledMethods ?? configuration.decoyMethods
        if let user, try await passkeyProofs.hasUsablePasskey(userID: user.id) { enrolled.append(.passkey) }
        if let device {
            enrolled.append(.deviceKey)
            if device.biometryKey != nil { enrolled.append(.biometricKey) }
        }
        let required = risk.requiredCategories(
            base: policy.requiredCategories,
            for: RiskContext(operation: request.operation, transaction: transaction, user: user, device: device))
        var methods = policy.methods.filter(enrolled.contains)
        // A sign-up challenge offers the code for the typed address whatever the decoy profile.
        if user == nil, signUpOrIn || signUpAddress != nil, !methods.contains(.emailOTP) { methods.append(.emailOTP) }
        // When risk asks for more than the methods at hand can prove, say so now rather than
        // open a challenge that can never complete. (Only a raised bar: what a user has
        // enrolled for the base policy is never revealed here.)
        var provable = Self.categories(of: methods)
        if methods.contains(.passkey) { provable.insert(configuration.webauthnUserVerifiedCategory) }
        if required > policy.requiredCategories, provable.count < required {
            throw Problem.categoriesUnavailable(required: required)
        }
        let challengeID = runtime.makeID(prefix: "ch")
        var exemption: Exemption?
        if let user {
            exemption = try await riskEngine.decide(
                RiskService.Request(
                    challengeID: challengeID, operation: request.operation, transaction: transaction,
                    paymentType: request.paymentType ?? .creditTransfer, recurring: request.recurring ?? false, user: user,
                    device: device, hasSession: hasSession, policyRaised: required > policy.requiredCategories))
        }
        let now = runtime.now()
        var challenge = ChallengeRecord(
            id: challengeID, userID: user?.id, operation: request.operation,
            verdict: policy.verdict, requiredCategories: required,
            methods: methods, nonce: Base64URL.encode(runtime.random.bytes(32)),
            transaction: transaction, transactionDigest: transaction?.digest ?? beneficiary?.digest,
            deviceID: request.device?.deviceId,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(configuration.challengeLifetime)),
            decoy: user == nil && !discoverable ? codes.decoySubject(for: request.user) : nil)
        if user == nil { challenge.decoy?.signUpAddress = signUpAddress }
        if let exemption, let user {
            return try await completeExempt(&challenge, exemption: exemption, user: user)
        }
        try await store.insertChallenge(challenge)
        logger.debug("challenge created", metadata: ["challenge": "\(challenge.id)", "operation": "\(challenge.operation.rawValue)"])
        // A decoy (unknown user) is recorded too, without a user: probing is worth tracing.
        await audit.record(
            .challengeCreated, userID: user?.id, deviceID: challenge.deviceID, challengeID: challenge.id,
            operation: challenge.operation, details: ["requiredCategories": "\(required)"])
        return try await describeWithOptions(challenge)
    }

    /// A `login` challenge without a user, for a discoverable passkey (`methodHint` `passkey`,
    /// `user` empty). Needs passkeys configured and offered for `login`.
    /// - Throws: `Problem.invalidRequest` for another operation; 422 `method.not_offered`.
    private func discoverableLogin(_ request: CreateChallengeRequest) throws -> Bool {
        guard request.user.email == nil, request.user.userId == nil, request.methodHint == .passkey else { return false }
        guard request.operation == .login, request.device == nil else {
            throw Problem.invalidRequest("a challenge without a user is only for a passkey login")
        }
        guard passkeyProofs.offersDiscoverableLogin else {
            throw Problem.methodNotOffered(.passkey)
        }
        return true
    }

    /// The description with the passkey request options, for a pending challenge offering one.
    private func describeWithOptions(_ challenge: ChallengeRecord) async throws -> ChallengeResponse {
        var response = Self.describe(challenge)
        response.passkey = try await passkeyProofs.options(for: challenge)
        return response
    }

    /// An exempted challenge: stored completed without proofs, its tokens issued at once
    /// (`acr` `psd2.exempt`, the `exemption` claim, `txn` still bound).
    private func completeExempt(
        _ challenge: inout ChallengeRecord, exemption: Exemption, user: UserRecord
    ) async throws -> ChallengeResponse {
        challenge.requiredCategories = 0
        challenge.methods = []
        challenge.state = .completed
        challenge.completedAt = challenge.createdAt
        challenge.exemption = exemption
        try await store.insertChallenge(challenge)
        await audit.record(
            .challengeCreated, userID: user.id, deviceID: challenge.deviceID, challengeID: challenge.id,
            operation: challenge.operation, details: ["requiredCategories": "0", "exemption": exemption.rawValue])
        let issued = try await tokens.issue(for: challenge, userID: user.id)
        logger.debug(
            "challenge exempted",
            metadata: ["challenge": "\(challenge.id)", "operation": "\(challenge.operation.rawValue)", "exemption": "\(exemption.rawValue)"])
        await audit.record(
            .challengeCompleted, outcome: "exempt", userID: user.id, deviceID: challenge.deviceID, challengeID: challenge.id,
            operation: challenge.operation, details: ["exemption": exemption.rawValue])
        var response = Self.describe(challenge)
        response.tokens = issued
        return response
    }

    /// - Throws: `Problem.challengeNotFound`.
    public func get(_ challengeID: String) async throws -> ChallengeResponse {
        try await describeWithOptions(try await load(challengeID))
    }

    /// Cancels a pending challenge (the user gave up).
    /// - Throws: `Problem.challengeNotFound`, or 409 when it is no longer pending.
    public func cancel(_ challengeID: String) async throws -> ChallengeResponse {
        var challenge = try await load(challengeID)
        for _ in 0..<Self.maxUpdateRetries {
            guard challenge.state == .pending else { throw Problem.challengeClosed(challenge.state) }
            var cancelled = challenge
            cancelled.state = .cancelled
            if try await store.updateChallenge(cancelled, expectedVersion: challenge.version) {
                cancelled.version += 1
                await audit.record(
                    .challengeCancelled, userID: cancelled.userID, challengeID: cancelled.id,
                    operation: cancelled.operation)
                return Self.describe(cancelled)
            }
            challenge = try await load(challengeID)
        }
        throw Problem.contention
    }

    /// Sends (or resends) the SMS or e-mail code of a challenge.
    public func sendCode(_ request: SendCodeRequest, for challengeID: String) async throws -> CodeSentResponse {
        let challenge = try await load(challengeID)
        guard challenge.state == .pending else { throw Problem.challengeClosed(challenge.state) }
        guard request.method.isDeliveredCode, challenge.methods.contains(request.method) else {
            throw Problem.methodNotOffered(request.method)
        }
        let user = try await challenge.userID.asyncFlatMap { try await store.user(id: $0) }
        return try await codes.send(request.method, for: challenge, to: user)
    }

    // MARK: Phase 2

    /// Takes one proof. Returns `partial` or `complete` (with tokens).
    ///
    /// A challenge checks one proof at a time (claimed before anything is counted or checked).
    /// Under the immediate verdict every proof is one attempt. Under the deferred verdict one
    /// round (the proofs collected until the verdict) is one attempt, whatever it holds: it is
    /// counted as failed when its first proof is checked, right or wrong, and forgiven only by
    /// a completed challenge, so nothing stored or answered depends on which element was wrong;
    /// and a round takes one proof per category. A right code presented again is refused
    /// without being counted: it is not a guess.
    /// - Throws: `Problem`: 400, 401 (`sca.proof_rejected`, `sca.authentication_failed`), 404,
    ///   409 (closed, `sca.proof_in_progress`, `sca.category_already_collected`,
    ///   `sca.code_already_used`), 422 `method.not_offered`, 423 `user.locked`,
    ///   429 `sca.attempts_in_progress`.
    public func submit(_ proof: ProofRequest, to challengeID: String) async throws -> ProofResponse {
        if let problem = FactorVerifier.credentialProblem(for: proof) { throw Problem.invalidRequest(problem) }
        let challenge = try await load(challengeID)
        guard challenge.state == .pending else { throw Problem.challengeClosed(challenge.state) }
        guard challenge.methods.contains(proof.method) else { throw Problem.methodNotOffered(proof.method) }
        var user = try await challenge.userID.asyncFlatMap { try await store.user(id: $0) }
        // A discoverable passkey login: the assertion names the user (an unknown credential
        // is answered as a wrong proof, counted against the challenge).
        if challenge.isDiscoverable, proof.method == .passkey { user = try await passkeyProofs.owner(of: proof) }
        var device: DeviceRecord?
        let subject: LockoutSubject
        if let user {
            subject = .user(user)
            if proof.method == .passkey {
                // Checked against the user's passkeys by the verifier: another's is a wrong proof.
            } else if proof.method.isDeviceSignature {
                // Only the device the challenge names may sign, and only while it is active.
                guard let deviceID = challenge.deviceID, proof.deviceId == deviceID else { throw Problem.methodNotOffered(proof.method) }
                device = try await namedDevice(DeviceReference(deviceId: deviceID), of: user)
            } else {
                guard user.enrolledMethods.contains(proof.method) else { throw Problem.methodNotOffered(proof.method) }
            }
        } else {
            // A decoy (unknown user) counts against what was typed, so a new challenge for the
            // same address meets the same counters. (A challenge without that key, whose user
            // was deleted meanwhile, counts against itself.)
            subject = .unknownAddress(key: challenge.subjectKey ?? "challenge:\(challenge.id)")
        }

        let claimed = try await claim(proof.method, on: challenge)
        // Counted before it is checked, so parallel guesses (on other challenges) can never
        // exceed the limit. Deferred: only the first proof of a round; the round is the attempt.
        let startsAttempt = claimed.verdict == .immediate || (claimed.acceptedMethods + claimed.rejectedMethods).isEmpty
        if startsAttempt {
            do {
                try await lockout.reserveAttempt(for: subject)
            } catch {
                await unclaim(proof.method, on: claimed.id)
                throw error
            }
        }
        let evaluation: ProofEvaluation
        var extraCategory: Category?
        var details: [String: String] = [:]
        do {
            if proof.method == .passkey {
                let outcome = if let user {
                    try await passkeyProofs.verify(proof, user: user, challenge: claimed)
                } else {
                    passkeyProofs.unknownOwner(proof, on: claimed)
                }
                (evaluation, extraCategory, details) = (outcome.evaluation, outcome.extraCategory, outcome.details)
            } else if let user {
                evaluation = try await verifier.verify(proof, user: user, challenge: claimed, device: device)
            } else if claimed.decoy?.signUpAddress != nil, proof.method == .emailOTP {
                // Sign-up or in (issue 17): the code sent to the typed address is checked for real.
                evaluation = try await verifier.verifyDeliveredCode(proof, on: claimed)
            } else {
                // The same work a real check would do, and always wrong.
                try await verifier.imitateVerification(of: proof, on: claimed)
                evaluation = .wrong(device: nil)
            }
        } catch {
            // Refused before anything was evaluated: give the attempt back, so a busy server
            // never counts towards a block. (Other failures keep it counted: fail safe.)
            if startsAttempt, error is PasswordHashingBusy {
                try await lockout.releaseAttempt(for: subject)
            }
            await unclaim(proof.method, on: claimed.id)
            throw error
        }
        let outcome = switch evaluation {
        case .right: "accepted"
        case .wrong: "rejected"
        case .replayed: "replayed"
        }
        logger.debug(
            "proof evaluated", metadata: ["challenge": "\(claimed.id)", "method": "\(proof.method.rawValue)", "outcome": "\(outcome)"])
        await audit.record(
            evaluation == .right ? .proofAccepted : .proofRejected, outcome: outcome, userID: user?.id,
            deviceID: device?.id, challengeID: claimed.id,
            method: proof.method, details: details.merging(user == nil ? ["user": "unknown"] : [:]) { $1 })
        if case .wrong(let after?) = evaluation, after.status == .blocked {
            // The verifier blocks a device at its failure limit and hands it back as the
            // failure left it; the trail records that here. (`device` was active when loaded.)
            await audit.record(
                .deviceBlocked, outcome: "failure_limit", userID: user?.id, deviceID: after.id, challengeID: claimed.id,
                details: ["from": "active", "to": "blocked", "failCount": "\(after.failCount)"])
        }

        // A right code seen before is no guess: refused (once is once) and not counted.
        if evaluation == .replayed {
            if startsAttempt { try await lockout.releaseAttempt(for: subject) }
            await unclaim(proof.method, on: claimed.id)
            let current = try await load(claimed.id)
            throw current.state == .pending ? Problem.codeAlreadyUsed : Problem.challengeClosed(current.state)
        }
        let passed = evaluation == .right
        if passed, user == nil, let address = claimed.decoy?.signUpAddress {
            if startsAttempt { try await lockout.releaseAttempt(for: subject) }
            return try await completeSignUp(claimed, address: address, method: proof.method)
        }
        var remaining: Int?
        if claimed.verdict == .immediate {
            if passed {
                try await lockout.releaseAttempt(for: subject)
            } else {
                // The attempt that reaches the limit is answered like any wrong one, with
                // nothing left; the block shows as 423 from the next attempt on. So every
                // evaluated guess is one 401, and a refused one never is.
                if case .counted(let left) = try await lockout.recordFailure(for: subject) { remaining = left } else { remaining = 0 }
            }
        } else if startsAttempt {
            // The round's one attempt stays counted as failed, right or wrong: only a completed
            // challenge forgives it (`recordSuccess`).
            _ = try await lockout.recordFailure(for: subject)
        }
        return try await record(
            proof.method, passed: passed, extra: extraCategory, on: claimed, user: user, subject: subject, remaining: remaining)
    }

    /// Marks `method` as the proof this challenge is checking. One at a time: a round can then
    /// never take two guesses at one element, and of a right code sent many times at once one
    /// is checked while the others are refused unevaluated and uncounted.
    /// - Throws: 409 `sca.proof_in_progress`, `sca.category_already_collected` (deferred: the
    ///   round holds that category already) or a closed challenge.
    private func claim(_ method: AuthenticationMethod, on loaded: ChallengeRecord) async throws -> ChallengeRecord {
        var challenge = loaded
        for _ in 0..<Self.maxUpdateRetries {
            guard challenge.state == .pending else { throw Problem.challengeClosed(challenge.state) }
            guard runtime.now() < challenge.expiresAt else { throw Problem.challengeClosed(.expired) }
            guard challenge.pendingMethod == nil else { throw Problem.proofInProgress }
            if challenge.verdict == .deferred,
                challenge.collectedCategories.contains(method.category)
            {
                throw Problem.categoryAlreadyCollected(method.category)
            }
            var next = challenge
            next.pendingMethod = method
            if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                next.version += 1
                return next
            }
            challenge = try await load(challenge.id)
        }
        throw Problem.contention
    }

    /// Lets go of a claimed proof that was refused without a judgement (busy, replayed, locked).
    /// Best effort: the claim ends with the challenge anyway.
    private func unclaim(_ method: AuthenticationMethod, on challengeID: String) async {
        for _ in 0..<Self.maxUpdateRetries {
            guard let challenge = try? await store.challenge(id: challengeID), challenge.pendingMethod == method else { return }
            var next = challenge
            next.pendingMethod = nil
            if (try? await store.updateChallenge(next, expectedVersion: challenge.version)) != false { return }
        }
    }

    /// Adds one judged proof to the challenge, ends its claim, and decides. Compare-and-set,
    /// so of many parallel proofs exactly one completes the challenge.
    /// - Parameter remaining: immediate verdict, wrong proof: failures left (then it throws).
    /// - Parameter extra: a category the proof proved (or, wrong, claimed) besides its method's.
    private func record(
        _ method: AuthenticationMethod, passed: Bool, extra: Category? = nil, on loaded: ChallengeRecord, user: UserRecord?,
        subject: LockoutSubject, remaining: Int?
    ) async throws -> ProofResponse {
        var challenge = loaded
        for _ in 0..<Self.maxUpdateRetries {
            var next = challenge
            if next.pendingMethod == method { next.pendingMethod = nil }
            guard challenge.state == .pending, runtime.now() < challenge.expiresAt else {
                if next != challenge { _ = try await store.updateChallenge(next, expectedVersion: challenge.version) }
                if let remaining { throw Problem.proofRejected(remaining: remaining) }
                throw Problem.challengeClosed(challenge.state == .pending ? .expired : challenge.state)
            }
            next.collect(method, passed: passed, extra: extra)
            // A discoverable login belongs to the user its passkey named once it is proven.
            if passed, next.isDiscoverable, let user { next.userID = user.id }
            let collected = next.collectedCategories
            let decided = collected.count >= next.requiredCategories
            if !passed && next.verdict == .immediate {
                if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                    throw Problem.proofRejected(remaining: remaining ?? 0)
                }
            } else if decided && next.rejectedMethods.isEmpty, let user {
                next.state = .completed
                next.completedAt = runtime.now()
                if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                    try await lockout.recordSuccess(for: user)
                    await riskEngine.completedWithSCA(next, userID: user.id)
                    let issued = try await tokens.issue(for: next, userID: user.id)
                    logger.debug("challenge completed", metadata: ["challenge": "\(next.id)"])
                    await audit.record(
                        .challengeCompleted, userID: user.id, deviceID: next.deviceID, challengeID: next.id,
                        operation: next.operation,
                        details: ["methods": next.acceptedMethods.map(\.rawValue).joined(separator: ",")])
                    return ProofResponse(satisfiedCategories: next.acceptedCategories.sorted(), tokens: issued)
                }
            } else if decided {
                // Deferred verdict: something was wrong. Discard what was collected and let the
                // user try again on the same challenge, without saying which element failed:
                // the round was counted once when it began, whatever it held.
                next.discardRound()
                if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                    await audit.record(
                        .challengeFailed, outcome: "failure", userID: user?.id, challengeID: next.id,
                        operation: next.operation)
                    throw Problem.authenticationFailed(remaining: try await lockout.remainingAttempts(for: subject))
                }
            } else {
                if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                    // Deferred: rejected elements count as collected, so nothing is revealed yet.
                    return ProofResponse(
                        status: .partial, satisfiedCategories: collected.sorted(),
                        remainingCategories: next.requiredCategories - collected.count)
                }
            }
            challenge = try await load(challenge.id)
        }
        throw Problem.contention
    }

    /// Loads a challenge, turning a pending one past its lifetime into `expired`.
    private func load(_ challengeID: String) async throws -> ChallengeRecord {
        guard InputRules.isWellFormedID(challengeID, prefix: "ch"), var challenge = try await store.challenge(id: challengeID) else {
            throw Problem.challengeNotFound
        }
        if challenge.state == .pending && runtime.now() >= challenge.expiresAt {
            var expired = challenge
            expired.state = .expired
            if try await store.updateChallenge(expired, expectedVersion: challenge.version) {
                expired.version += 1
                challenge = expired
                await audit.record(
                    .challengeExpired, outcome: "expired", userID: expired.userID, challengeID: expired.id,
                    operation: expired.operation)
            } else if let reloaded = try await store.challenge(id: challengeID) {
                challenge = reloaded
            }
        }
        return challenge
    }

    /// The device a request names: it must exist, be the user's, and be active. An unknown
    /// user has no devices, so a decoy answers like a real user naming someone else's device.
    /// - Throws: `Problem` 400 (malformed id), 404 `device.not_found`, 403 `device.blocked` /
    ///   `device.removed`.
    private func namedDevice(_ reference: DeviceReference?, of user: UserRecord?) async throws -> DeviceRecord? {
        guard let reference else { return nil }
        guard InputRules.isWellFormedID(reference.deviceId, prefix: "dev") else {
            throw Problem.invalidRequest("device.deviceId is malformed")
        }
        guard let user, let device = try await store.device(id: reference.deviceId), device.userID == user.id else {
            throw Problem.deviceNotFound
        }
        guard device.status == .active else { throw Problem.deviceUnusable(device.status) }
        return device
    }

    private func findUser(_ reference: UserReference) async throws -> UserRecord? {
        switch (reference.email, reference.userId) {
        case (let email?, nil):
            let normalized = InputRules.normalizedEmail(email)
            if let problem = InputRules.emailProblem(normalized) { throw Problem.invalidRequest("user.\(problem)") }
            return try await store.user(email: normalized)
        case (nil, let userID?):
            guard InputRules.isWellFormedID(userID, prefix: "usr") else { throw Problem.invalidRequest("user.userId is malformed") }
            return try await store.user(id: userID)
        default:
            throw Problem.invalidRequest("user must have exactly one of email and userId")
        }
    }

    /// `beneficiary_add` needs the payee (with IBAN) it binds; every other operation refuses one,
    /// and only a payment takes `paymentType` and `recurring`.
    private static func validatedBeneficiary(_ request: CreateChallengeRequest) throws -> Transaction.Payee? {
        if request.operation != .payment, request.paymentType != nil || request.recurring != nil {
            throw Problem.invalidRequest("paymentType and recurring are only allowed for payment")
        }
        guard request.operation == .beneficiaryAdd else {
            guard request.beneficiary == nil else { throw Problem.invalidRequest("beneficiary is only allowed for beneficiary_add") }
            return nil
        }
        guard let beneficiary = request.beneficiary else { throw Problem.invalidRequest("beneficiary_add needs a beneficiary") }
        return try BeneficiaryService.normalizedPayee(name: beneficiary.name, iban: beneficiary.iban)
    }

    private static func validatedTransaction(_ request: CreateChallengeRequest) throws -> Transaction? {
        guard request.operation.requiresTransaction else {
            guard request.transaction == nil else {
                throw Problem.invalidRequest("transaction is only allowed for payment")
            }
            return nil
        }
        guard let transaction = request.transaction else { throw Problem.invalidRequest("payment needs a transaction") }
        switch TransactionRules.normalized(transaction) {
        case .success(let normalized): return normalized
        case .failure(let violation): throw Problem.invalidRequest("transaction: \(violation.reason)")
        }
    }

    static func categories(of methods: [AuthenticationMethod]) -> Set<Category> {
        Set(methods.map(\.category))
    }

    static func describe(_ challenge: ChallengeRecord) -> ChallengeResponse {
        ChallengeResponse(
            challengeId: challenge.id, operation: challenge.operation, state: challenge.state,
            expiresAt: challenge.expiresAt, requiredCategories: challenge.requiredCategories,
            satisfiedCategories: challenge.collectedCategories.sorted(),
            verdict: challenge.verdict, methods: challenge.methods.map(OfferedMethod.init), nonce: challenge.nonce,
            transactionDigest: challenge.transactionDigest,
            display: challenge.transaction.map {
                TransactionDisplay(
                    amount: $0.amount, currency: $0.currency, payee: $0.payee.name,
                    iban: $0.payee.iban.map(TransactionRules.maskedIBAN))
            }, exemption: challenge.exemption)
    }
}
