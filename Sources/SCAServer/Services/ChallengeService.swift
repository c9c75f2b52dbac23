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

    /// Compare-and-set retries before giving up on a challenge under heavy contention.
    private static let maxUpdateRetries = 32

    // MARK: Phase 1

    /// An unknown user gets a decoy: the configured default profile (`decoyMethods`) filtered
    /// by the operation's policy as a real user's enrolment is, and masks that follow what was
    /// typed (``DecoySubject``).
    /// - Throws: `Problem.invalidRequest` for a malformed request; nothing is written then.
    ///   `Problem.rateLimited` when the client address has opened too many challenges (every
    ///   request counts, well-formed or not).
    public func create(_ request: CreateChallengeRequest) async throws -> ChallengeResponse {
        try await limiter.admitChallenge()
        let transaction = try Self.validatedTransaction(request)
        let user = try await findUser(request.user)
        let device = try await namedDevice(request.device, of: user)
        let policy = configuration.policy(for: request.operation)
        var enrolled = user?.enrolledMethods ?? configuration.decoyMethods
        if let device {
            enrolled.append(.deviceKey)
            if device.biometryKey != nil { enrolled.append(.biometricKey) }
        }
        let required = risk.requiredCategories(
            base: policy.requiredCategories,
            for: RiskContext(operation: request.operation, transaction: transaction, user: user, device: device))
        let methods = policy.methods.filter(enrolled.contains)
        // When risk asks for more than the methods at hand can prove, say so now rather than
        // open a challenge that can never complete. (Only a raised bar: what a user has
        // enrolled for the base policy is never revealed here.)
        if required > policy.requiredCategories, Self.categories(of: methods).count < required {
            throw Problem.categoriesUnavailable(required: required)
        }
        let now = runtime.now()
        let challenge = ChallengeRecord(
            id: runtime.makeID(prefix: "ch"), userID: user?.id, operation: request.operation,
            verdict: policy.verdict, requiredCategories: required,
            methods: methods, nonce: Base64URL.encode(runtime.random.bytes(32)),
            transaction: transaction, transactionDigest: transaction?.digest, deviceID: request.device?.deviceId,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(configuration.challengeLifetime)),
            decoy: user == nil ? codes.decoySubject(for: request.user) : nil)
        try await store.insertChallenge(challenge)
        logger.info("challenge created", metadata: ["challenge": "\(challenge.id)", "operation": "\(challenge.operation.rawValue)"])
        // A decoy (unknown user) is recorded too, without a user: probing is worth tracing.
        await audit.record(
            .challengeCreated, userID: user?.id, deviceID: challenge.deviceID, challengeID: challenge.id,
            details: ["operation": challenge.operation.rawValue, "requiredCategories": "\(required)"])
        return Self.describe(challenge)
    }

    /// - Throws: `Problem.challengeNotFound`.
    public func get(_ challengeID: String) async throws -> ChallengeResponse {
        Self.describe(try await load(challengeID))
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
                    details: ["operation": cancelled.operation.rawValue])
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
    /// - Throws: `Problem`: 400, 401 (`sca.proof_rejected`, `sca.authentication_failed`), 404, 409,
    ///   422 `method.not_offered`, 423 `user.locked`, 429 `sca.attempts_in_progress`.
    public func submit(_ proof: ProofRequest, to challengeID: String) async throws -> ProofResponse {
        if let problem = FactorVerifier.credentialProblem(for: proof) { throw Problem.invalidRequest(problem) }
        let challenge = try await load(challengeID)
        guard challenge.state == .pending else { throw Problem.challengeClosed(challenge.state) }
        guard challenge.methods.contains(proof.method) else { throw Problem.methodNotOffered(proof.method) }
        guard let userID = challenge.userID, let user = try await store.user(id: userID) else {
            return try await submitToDecoy(proof, challenge: challenge)
        }
        var device: DeviceRecord?
        if proof.method.isDeviceSignature {
            // Only the device the challenge names may sign, and only while it is active.
            guard let deviceID = challenge.deviceID, proof.deviceId == deviceID else { throw Problem.methodNotOffered(proof.method) }
            device = try await namedDevice(DeviceReference(deviceId: deviceID), of: user)
        } else {
            guard user.enrolledMethods.contains(proof.method) else { throw Problem.methodNotOffered(proof.method) }
        }

        // Count the attempt before evaluating it, so parallel guesses can never exceed the limit.
        try await lockout.reserveAttempt(for: user)
        let passed: Bool
        do {
            passed = try await verifier.verify(proof, user: user, challenge: challenge, device: device)
        } catch let problem as Problem where problem == .passwordHashingBusy {
            // Refused before anything was evaluated: give the attempt back, so a busy server
            // never counts towards a user's block. (Other failures keep it counted: fail safe.)
            try await store.releaseAttempt(userID: user.id)
            throw problem
        }
        logger.info(
            "proof evaluated",
            metadata: ["challenge": "\(challenge.id)", "method": "\(proof.method.rawValue)", "outcome": "\(passed ? "accepted" : "rejected")"])
        await audit.record(
            passed ? .proofAccepted : .proofRejected, outcome: passed ? "accepted" : "rejected", userID: user.id,
            deviceID: device?.id, challengeID: challenge.id, details: ["method": proof.method.rawValue])
        if !passed, let device, let after = try? await store.device(id: device.id), after.status == .blocked {
            // The verifier blocks a device at its failure limit; the trail records that here,
            // where the outcome of the signature is known. (`device` was active when loaded.)
            await audit.record(
                .deviceBlocked, outcome: "failure_limit", userID: user.id, deviceID: device.id, challengeID: challenge.id,
                details: ["from": "active", "to": "blocked", "failCount": "\(after.failCount)"])
        }
        // What is left is told only on a wrong proof or a failed verdict; a right proof leaves it
        // to be read then (nil), sparing a read on every accepted proof.
        let remaining: Int?
        if passed {
            try await store.releaseAttempt(userID: user.id)
            remaining = nil
        } else {
            // The attempt that reaches the limit is answered like any wrong one, with nothing
            // left; the block shows as 423 from the next attempt on. So every evaluated guess
            // is one 401, and a refused one never is.
            var left = 0
            if case .counted(let counted) = try await lockout.recordFailure(for: user) { left = counted }
            if challenge.verdict == .immediate { throw Problem.proofRejected(remaining: left) }
            remaining = left
        }
        return try await record(proof.method, passed: passed, on: challenge, user: user, remaining: remaining)
    }

    /// Adds one evaluated proof to the challenge and decides. Compare-and-set, so of many
    /// parallel proofs exactly one completes the challenge.
    private func record(
        _ method: AuthenticationMethod, passed: Bool, on loaded: ChallengeRecord, user: UserRecord?, remaining: Int?
    ) async throws -> ProofResponse {
        var challenge = loaded
        for _ in 0..<Self.maxUpdateRetries {
            guard challenge.state == .pending else { throw Problem.challengeClosed(challenge.state) }
            guard runtime.now() < challenge.expiresAt else { throw Problem.challengeClosed(.expired) }
            var next = challenge
            if passed {
                if !next.acceptedMethods.contains(method) { next.acceptedMethods.append(method) }
            } else {
                next.rejectedMethods.append(method)
                next.failedAttempts += 1
            }
            let collected = Self.categories(of: next.acceptedMethods + next.rejectedMethods)
            let decided = collected.count >= next.requiredCategories
            if decided && next.rejectedMethods.isEmpty, let user {
                next.state = .completed
                next.completedAt = runtime.now()
                if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                    try await store.recordSuccess(userID: user.id)
                    let issued = try await tokens.issue(for: next, userID: user.id)
                    logger.info("challenge completed", metadata: ["challenge": "\(next.id)"])
                    await audit.record(
                        .challengeCompleted, userID: user.id, deviceID: next.deviceID, challengeID: next.id,
                        details: [
                            "operation": next.operation.rawValue,
                            "methods": next.acceptedMethods.map(\.rawValue).joined(separator: ","),
                        ])
                    return ProofResponse(satisfiedCategories: Self.categories(of: next.acceptedMethods).sorted(), tokens: issued)
                }
            } else if decided {
                // Deferred verdict: something was wrong. Discard what was collected and let the
                // user try again on the same challenge, without saying which element failed.
                next.acceptedMethods = []
                next.rejectedMethods = []
                if try await store.updateChallenge(next, expectedVersion: challenge.version) {
                    await audit.record(
                        .challengeFailed, outcome: "failure", userID: user?.id, challengeID: next.id,
                        details: ["operation": next.operation.rawValue])
                    throw Problem.authenticationFailed(remaining: try await remainingAfterVerdict(remaining, user: user))
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

    /// Failures left for a failed verdict: known already after a wrong proof, read otherwise.
    private func remainingAfterVerdict(_ known: Int?, user: UserRecord?) async throws -> Int {
        if let known { return known }
        guard let user else { return 0 }
        return try await lockout.remainingAttempts(for: user.id)
    }

    /// An unknown user's challenge: every proof fails, after the same work and with the same
    /// answers a real user would get, counting down to a block. (The count lives on the
    /// challenge, not on the e-mail address: a new decoy challenge starts again from zero.)
    private func submitToDecoy(_ proof: ProofRequest, challenge: ChallengeRecord) async throws -> ProofResponse {
        try await verifier.imitateVerification(of: proof, on: challenge)
        await audit.record(
            .proofRejected, outcome: "rejected", challengeID: challenge.id,
            details: ["method": proof.method.rawValue, "user": "unknown"])
        let maxFailures = configuration.lockout.maxFailedAttempts
        guard challenge.failedAttempts < maxFailures else {
            throw Problem.userLocked(until: runtime.now().addingTimeInterval(configuration.lockout.firstBlockDuration), now: runtime.now())
        }
        let remaining = maxFailures - challenge.failedAttempts - 1
        guard challenge.verdict == .deferred else {
            var next = challenge
            next.failedAttempts += 1
            _ = try await store.updateChallenge(next, expectedVersion: challenge.version)
            throw Problem.proofRejected(remaining: remaining)
        }
        return try await record(proof.method, passed: false, on: challenge, user: nil, remaining: remaining)
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
                    details: ["operation": expired.operation.rawValue])
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
            satisfiedCategories: categories(of: challenge.acceptedMethods + challenge.rejectedMethods).sorted(),
            verdict: challenge.verdict, methods: challenge.methods.map(OfferedMethod.init), nonce: challenge.nonce,
            transactionDigest: challenge.transactionDigest,
            display: challenge.transaction.map {
                TransactionDisplay(
                    amount: $0.amount, currency: $0.currency, payee: $0.payee.name,
                    iban: $0.payee.iban.map(TransactionRules.maskedIBAN))
            })
    }
}

extension Optional {
    func asyncFlatMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped?) async rethrows -> Mapped? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
