import Foundation
import Logging
import SCACore
import SCAStorage

/// The three phases: open a challenge, take proofs one at a time, and issue tokens when enough
/// categories are proven. The client never decides it is done; this service does.
package struct ChallengeService: EngineService, Sendable {
    package let context: EngineContext
    let verifier: FactorVerifier
    let tokens: TokenService
    let codes: CodeService
    let lockout: LockoutService
    let risk: RiskPolicy
    /// Challenges opened per client address.
    let limiter: RateLimiter
    /// Transaction monitoring and exemptions.
    let riskEngine: RiskService
    /// Passkeys as a proof.
    let passkeyProofs: PasskeyProofs

    /// Whether a sign-in page may offer "Sign in with a passkey" before the user is named.
    package var offersPasskeyLogin: Bool { passkeyProofs.offersDiscoverableLogin }

    // MARK: Phase 1

    /// An unknown user gets a decoy: the configured default profile (`decoyMethods`) filtered
    /// by the operation's policy as a real user's enrolment is, and masks that follow what was
    /// typed (``DecoySubject``).
    /// - Throws: `Problem.invalidRequest` for a malformed request; nothing is written then.
    ///   `Problem.rateLimited` when the client address has opened too many challenges (every
    ///   request counts, well-formed or not).
    ///
    /// An exemption is considered only for a caller presenting `authorization`: a
    /// live session token (`login` or `account_info`) of the same user. An exempted challenge
    /// is answered completed, with `requiredCategories` 0 and its tokens.
    /// - Throws: also `Problem.riskRefused` when monitoring refuses; 401 for a bad token and
    ///   403 `auth.forbidden` for another user's.
    /// - Parameters:
    ///   - signUpOrIn: opened by `POST /v1/signup-or-in` for this address (a number
    ///     is looked up as a login phone instead of `request.user`): what the challenge is and
    ///     offers is ``SignUpOrIn``'s decision, the same for every address.
    ///   - admitted: counted already in another budget (an operation's), so not in
    ///     the client address's challenge budget.
    ///   - delegation: the partner the challenge's tokens are for (a hosted sign-in, a consent,
    ///     a partner's operation); nil for the bank's own surfaces. Never from the request body:
    ///     only the server's own partner flows set it.
    ///   - read: the user `request` names by id (and no device), as the caller has just read
    ///     it with what else it needed (the consent page): not read again. Ignored unless it is
    ///     that user.
    package func create(
        _ request: CreateChallengeRequest, authorization: String? = nil, signUpOrIn: SignUpOrIn? = nil, admitted: Bool = false,
        delegation: Delegation? = nil, read: UserRecord? = nil
    ) async throws -> ChallengeResponse {
        if !admitted { try await limiter.admitChallenge() }
        // Only a sign-up's answer carries an enrolment token; no challenge is opened for one.
        guard request.operation != .enrolment else { throw Problem.invalidRequest("operation enrolment cannot be challenged") }
        let transaction = try Self.validatedTransaction(request)
        let beneficiary = try Self.validatedBeneficiary(request)
        let discoverable = try discoverableLogin(request)
        // The user and the device named, in one read.
        let context: ChallengeContext
        if let read, signUpOrIn == nil, request.device == nil, request.user.email == nil, request.user.userId == read.id {
            context = ChallengeContext(user: read, device: nil)
        } else {
            context = try await lookUp(request, loginPhone: signUpOrIn?.loginPhone, discoverable: discoverable)
        }
        var user = context.user
        // Sign up or in: decided from that read alone, the same way for every address.
        let signUpPlan = signUpOrIn?.plan(
            found: user, policy: configuration.policy(for: request.operation).methods, decoyMethods: configuration.decoyMethods,
            passkeyUsable: user.map(passkeyProofs.hasUsablePasskey) ?? false)
        if let signUpPlan { user = signUpPlan.user }
        let device = try Self.namedDevice(request.device, found: context.device, of: user)
        var hasSession = false
        if authorization != nil {
            // The user's own session only: a partner holding a token of the user opens no
            // exemption (it would approve payments the user never saw).
            let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo], at: .firstParty, consume: false)
            guard let user, claims.sub.value == user.id else { throw Problem.forbidden }
            hasSession = true
        }
        if let user, user.isRestricted, PasswordResetPlan.heldOperations.contains(request.operation) || delegation != nil {
            // Before any exemption: a restricted account moves no money, with or without SCA,
            // and lets no partner in (a sign-in, a consent or a partner's operation would give
            // whoever reset the password a third party's lasting access).
            throw Problem.userRestricted
        }
        let policy = configuration.policy(for: request.operation)
        var enrolled = discoverable ? [.passkey] : user?.enrolledMethods ?? configuration.decoyMethods
        if let user, passkeyProofs.hasUsablePasskey(user) { enrolled.append(.passkey) }
        if let device {
            enrolled.append(.deviceKey)
            if device.biometryKey != nil { enrolled.append(.biometricKey) }
        }
        var required = risk.requiredCategories(
            base: policy.requiredCategories,
            for: RiskContext(operation: request.operation, transaction: transaction, user: user, device: device))
        var methods = signUpPlan?.methods ?? policy.methods.filter(enrolled.contains)
        if request.operation == .passwordReset { methods = PasswordResetPlan.methods(methods, hint: request.methodHint) }
        // When risk asks for more than the methods at hand can prove, say so now rather than
        // open a challenge that can never complete. (Only a raised bar: what a user has
        // enrolled for the base policy is never revealed here.)
        var provable = Self.categories(of: methods)
        if methods.contains(.passkey) { provable.insert(configuration.webauthnUserVerifiedCategory) }
        if request.operation == .passwordReset {
            required = PasswordResetPlan.requiredCategories(policy: required, provable: provable)
        }
        if required > policy.requiredCategories, provable.count < required {
            throw Problem.categoriesUnavailable(required: required)
        }
        let now = runtime.now()
        var opened = ChallengeRecord(
            id: runtime.makeTimeOrderedID(prefix: "ch"), userID: user?.id, operation: request.operation,
            verdict: signUpOrIn == nil ? policy.verdict : SignUpOrIn.verdict, requiredCategories: required,
            methods: methods, nonce: Base64URL.encode(runtime.random.bytes(32)),
            transaction: transaction, transactionDigest: transaction?.digest ?? beneficiary?.digest,
            deviceID: request.device?.deviceId,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(configuration.challengeLifetime)),
            decoy: user == nil && !discoverable || signUpOrIn != nil
                ? (signUpOrIn?.loginPhone.map(codes.decoySubject(forPhone:)) ?? codes.decoySubject(for: request.user)) : nil,
            delegation: delegation)
        if let signUpOrIn, let signUpPlan, let typed = opened.decoy {
            opened.decoy = signUpPlan.marking(typed, code: signUpOrIn.code)
        }
        // A payment's decision is written with its challenge, and only while the risk state it
        // read is unchanged: when a parallel payment of the user wrote it first, decide again.
        var contended = 0
        while true {
            var decision: RiskService.Decision?
            if let user {
                decision = try await riskEngine.decide(
                    RiskService.Request(
                        challengeID: opened.id, operation: request.operation, transaction: transaction,
                        paymentType: request.paymentType ?? .creditTransfer, recurring: request.recurring ?? false, user: user,
                        device: device, hasSession: hasSession, policyRaised: required > policy.requiredCategories),
                    contended: contended)
            }
            do {
                if let decision, let exemption = decision.exemption, let user {
                    var exempted = opened
                    return try await completeExempt(&exempted, exemption: exemption, user: user, decided: decision)
                }
                // A decoy (unknown user) is recorded too, without a user: probing is worth tracing.
                try await insert(
                    opened,
                    auditing: [decision?.audit].compactMap { $0 } + [
                        audit.prepare(
                            .challengeCreated, userID: user?.id, deviceID: opened.deviceID, challengeID: opened.id,
                            operation: opened.operation, details: ["requiredCategories": "\(required)"])
                    ],
                    admitting: decision?.admission)
            } catch StoreError.conflict("riskState") {
                contended += 1
                continue
            }
            logger.debug("challenge created", metadata: ["challenge": "\(opened.id)", "operation": "\(opened.operation.rawValue)"])
            return try await describeWithOptions(opened)
        }
    }

    /// Stores a new challenge, its payment's decision, an exempted one's session and its
    /// entries (the risk decision's, `challenge.created`) in one write, and counts the events
    /// once they are committed.
    /// - Throws: `StoreError.conflict("riskState")` (nothing stored) when the decision's state changed.
    private func insert(
        _ challenge: ChallengeRecord, auditing events: [PreparedAuditEvent], admitting admission: RiskAdmission?,
        opening: SessionOpening? = nil
    ) async throws {
        _ = try await store.insertChallenge(challenge, auditing: events.map(\.draft), admitting: admission, opening: opening)
        audit.committed(events)
    }

    /// A `login` challenge without a user, for a discoverable passkey (`methodHint` `passkey`,
    /// `user` empty). Needs passkeys configured and offered for `login`.
    /// - Throws: `Problem.invalidRequest` for another operation; 404 `passkey.unavailable` on a
    ///   server without passkeys (as every passkey route there); 422 `method.not_offered` when
    ///   the `login` policy does not offer them.
    private func discoverableLogin(_ request: CreateChallengeRequest) throws -> Bool {
        guard request.user.email == nil, request.user.userId == nil, request.methodHint == .passkey else { return false }
        guard request.operation == .login, request.device == nil else {
            throw Problem.invalidRequest("a challenge without a user is only for a passkey login")
        }
        guard passkeyProofs.isAvailable else { throw Problem.passkeyUnavailable }
        guard passkeyProofs.offersDiscoverableLogin else {
            throw Problem.methodNotOffered(.passkey)
        }
        return true
    }

    /// The description with the passkey request options, for a pending challenge offering one.
    private func describeWithOptions(_ challenge: ChallengeRecord) async throws -> ChallengeResponse {
        var response = Self.describe(challenge)
        // Options only for what is offered now: none while a sign-up-or-in asks for its code.
        var offered = challenge
        offered.methods = challenge.offeredMethods
        response.passkey = try await passkeyProofs.options(for: offered)
        return response
    }

    /// An exempted challenge: stored completed without proofs, its tokens issued at once
    /// (`acr` `psd2.exempt`, the `exemption` claim, `txn` still bound).
    private func completeExempt(
        _ challenge: inout ChallengeRecord, exemption: Exemption, user: UserRecord, decided: RiskService.Decision
    ) async throws -> ChallengeResponse {
        challenge.requiredCategories = 0
        challenge.methods = []
        challenge.state = .completed
        challenge.completedAt = challenge.createdAt
        challenge.exemption = exemption
        // Its session, its tokens' entry and its completion are stored in the challenge's
        // own write, which makes the signed tokens valid.
        let prepared = try await tokens.prepare(for: challenge, userID: user.id, user: user)
        try await insert(
            challenge,
            auditing: [
                decided.audit,
                audit.prepare(
                    .challengeCreated, userID: user.id, deviceID: challenge.deviceID, challengeID: challenge.id,
                    operation: challenge.operation, details: ["requiredCategories": "0", "exemption": exemption.rawValue]),
                prepared.audit,
                audit.prepare(
                    .challengeCompleted, outcome: "exempt", userID: user.id, deviceID: challenge.deviceID,
                    challengeID: challenge.id, operation: challenge.operation, details: ["exemption": exemption.rawValue]),
            ],
            admitting: decided.admission, opening: prepared.opening)
        let issued = prepared.response
        logger.debug(
            "challenge exempted",
            metadata: ["challenge": "\(challenge.id)", "operation": "\(challenge.operation.rawValue)", "exemption": "\(exemption.rawValue)"])
        var response = Self.describe(challenge)
        response.tokens = issued
        return response
    }

    /// - Throws: `Problem.challengeNotFound`.
    package func get(_ challengeID: String) async throws -> ChallengeResponse {
        try await describeWithOptions(try await load(challengeID))
    }

    /// The challenge as ``get(_:)`` describes it, when a page's factor forms can still prove
    /// it: pending, and not bound to a device (a phone operation's challenge is the phone's to
    /// complete). Nil otherwise. Of the challenge as the caller read it (with the page's other
    /// records): no read of its own, and a write only to record that it expired.
    package func provableOnPage(_ loaded: ChallengeRecord) async throws -> ChallengeResponse? {
        let challenge = try await expireIfDue(loaded)
        guard challenge.closedState(at: runtime.now()) == nil, challenge.deviceID == nil else { return nil }
        return try await describeWithOptions(challenge)
    }

    /// Cancels a pending challenge (the user gave up).
    /// - Throws: `Problem.challengeNotFound`, or 409 when it is no longer pending.
    package func cancel(_ challengeID: String) async throws -> ChallengeResponse {
        try await CompareAndSet.retrying(reload: { try await load(challengeID) }) { challenge in
            if let closed = challenge.closedState(at: runtime.now()) { throw Problem.challengeClosed(closed) }
            var cancelled = challenge
            cancelled.state = .cancelled
            guard try await store.updateChallenge(cancelled, expectedVersion: challenge.version) else { return nil }
            cancelled.version += 1
            await audit.record(
                .challengeCancelled, userID: cancelled.userID, challengeID: cancelled.id, operation: cancelled.operation)
            return Self.describe(cancelled)
        }
    }

    /// Sends (or resends) the SMS or e-mail code of a challenge.
    package func sendCode(_ request: SendCodeRequest, for challengeID: String) async throws -> CodeSentResponse {
        let challenge = try await load(challengeID)
        if let closed = challenge.closedState(at: runtime.now()) { throw Problem.challengeClosed(closed) }
        guard request.method.isDeliveredCode, challenge.offeredMethods.contains(request.method) else {
            throw Problem.methodNotOffered(request.method)
        }
        let user = try await challenge.userID.asyncFlatMap { try await store.user(id: $0) }
        // A sign-up-or-in decoy reads as a known user's challenge does, finding
        // nobody (a challenge id is no user's id): the same store calls before the answer.
        if challenge.userID == nil, challenge.decoy?.codeFirst != nil { _ = try await store.user(id: challenge.id) }
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
    ///
    /// What a judged proof changes (the challenge, the attempt counters, a burnt signature, a
    /// used code or TOTP step, the device, a session, the audit entries) is one write
    /// (``SCAStore/commitProof(_:)``): a code or TOTP step is judged on what was read and used
    /// by that write only if still unused, or the proof is judged again (a replay). A
    /// device signature, judged by pure code, needs no claim: its claim is that same write,
    /// made from the version it was judged against.
    /// - Throws: `Problem`: 400, 401 (`sca.proof_rejected`, `sca.authentication_failed`), 404,
    ///   409 (closed, `sca.proof_in_progress`, `sca.category_already_collected`,
    ///   `sca.code_already_used`), 422 `method.not_offered`, 423 `user.locked`,
    ///   429 `sca.attempts_in_progress`.
    package func submit(_ proof: ProofRequest, to challengeID: String) async throws -> ProofResponse {
        try await submit(proof, to: challengeID, deciding: nil).response
    }

    /// ``submit(_:to:)``, and a proof that completes the challenge writes the consent change
    /// `deciding` makes of its tokens in the same write (the hosted consent page's acceptance).
    /// - Returns: the answer, and the consent as stored (nil when the proof did not complete
    ///   the challenge, `deciding` made no change, or the consent changed meanwhile: the
    ///   caller decides it again).
    package func submit(
        _ proof: ProofRequest, to challengeID: String, deciding: ConsentDecision.Deciding?
    ) async throws -> (response: ProofResponse, consent: ConsentRecord?) {
        // The challenge, its user and its device in one read: the resource first, as on every
        // route, then the proof's shape (still before anything is counted).
        guard InputRules.isWellFormedID(challengeID, prefix: "ch"), let context = try await store.proofContext(challengeID: challengeID) else {
            throw Problem.challengeNotFound
        }
        if let problem = FactorVerifier.credentialProblem(for: proof) { throw Problem.invalidRequest(problem) }
        let challenge = try await expireIfDue(context.challenge)
        if let closed = challenge.closedState(at: runtime.now()) { throw Problem.challengeClosed(closed) }
        guard challenge.offeredMethods.contains(proof.method) else { throw Problem.methodNotOffered(proof.method) }
        var user = context.user
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
                guard let named = context.device, named.userID == user.id else { throw Problem.deviceNotFound }
                guard named.status == .active else { throw Problem.deviceUnusable(named.status) }
                device = named
            } else {
                guard user.enrolledMethods.contains(proof.method) else { throw Problem.methodNotOffered(proof.method) }
            }
        } else {
            // A decoy (unknown user) counts against what was typed, so a new challenge for the
            // same address meets the same counters. (A challenge without that key, whose user
            // was deleted meanwhile, counts against itself.)
            subject = .unknownAddress(key: challenge.subjectKey ?? "challenge:\(challenge.id)")
        }

        if let user, let device {
            // Checked before anything is written, and against nothing that a retry changes.
            try Self.checkClaim(proof.method, on: challenge, now: runtime.now())
            let burn = verifier.signatureBurn(proof, by: device, challenge: challenge)
            let passed = burn != nil
            logProof(proof.method, passed: passed, on: challenge.id)
            return try await record(
                JudgedProof(
                    method: proof.method, passed: passed, extra: nil, details: [:], user: user, subject: subject,
                    device: device, burn: burn, factor: nil, claim: .unclaimed, deciding: deciding),
                on: challenge)
        }

        let (claimed, startsAttempt) = try await claim(proof.method, on: challenge, subject: subject)
        // The counters as the claim left them: the judged proof's lockout hint.
        let claimedSubject = startsAttempt ? lockout.reserved(subject) : subject
        // The user a TOTP code is judged against: read again when its step was used meanwhile.
        var judgedUser = user
        // A factor used meanwhile is judged again, as a lost compare-and-set round would be.
        for _ in 0..<CompareAndSet.attempts {
            let judgement: FactorJudgement
            var extraCategory: Category?
            var details: [String: String] = [:]
            do {
                if proof.method == .passkey {
                    let outcome = if let user {
                        try await passkeyProofs.verify(proof, user: user, challenge: claimed)
                    } else {
                        passkeyProofs.unknownOwner(proof, on: claimed)
                    }
                    (judgement, extraCategory, details) = (outcome.judgement, outcome.extraCategory, outcome.details)
                } else if let user = judgedUser {
                    judgement = try await verifier.verify(proof, user: user, challenge: claimed)
                } else if claimed.decoy?.signUpAddress != nil && proof.method == .emailOTP
                    || claimed.decoy?.signUpPhone != nil && proof.method == .smsOTP
                {
                    // Sign-up or in: the code sent to the typed address is checked for real.
                    judgement = try await verifier.consumeDeliveredCode(proof, on: claimed)
                } else {
                    // The same work a real check would do, and always wrong.
                    try await verifier.imitateVerification(of: proof, on: claimed)
                    judgement = .wrong
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

            // A right code seen before is no guess: refused (once is once) and not counted.
            if judgement == .replayed {
                logProof(proof.method, passed: nil, on: claimed.id)
                await audit.record(
                    .proofRejected, outcome: "replayed", userID: user?.id, challengeID: claimed.id,
                    method: proof.method, details: details.merging(user == nil ? ["user": "unknown"] : [:]) { $1 })
                if startsAttempt { try await lockout.releaseAttempt(for: subject) }
                await unclaim(proof.method, on: claimed.id)
                let current = try await load(claimed.id)
                throw current.state == .pending ? Problem.codeAlreadyUsed : Problem.challengeClosed(current.state)
            }
            var passed = false
            var use: FactorUse?
            if case .right(let used) = judgement { (passed, use) = (true, used) }
            logProof(proof.method, passed: passed, on: claimed.id)
            if passed, user == nil, let address = proof.method == .smsOTP ? claimed.decoy?.signUpPhone : claimed.decoy?.signUpAddress {
                await audit.record(
                    .proofAccepted, outcome: "accepted", challengeID: claimed.id, method: proof.method,
                    details: details.merging(["user": "unknown"]) { $1 })
                if startsAttempt { try await lockout.releaseAttempt(for: subject) }
                return (try await completeSignUp(claimed, address: address, method: proof.method), nil)
            }
            do {
                return try await record(
                    JudgedProof(
                        method: proof.method, passed: passed, extra: extraCategory, details: details, user: user,
                        subject: claimedSubject, device: nil, burn: nil, factor: use, claim: .claimed(startsAttempt: startsAttempt),
                        deciding: deciding),
                    on: claimed)
            } catch is FactorUsedMeanwhile {
                // The code (or TOTP step) was used, or replaced, between the read and the commit,
                // which then changed nothing: judged again on it as it now is, a replay when
                // another proof used it. The claim and the reserved attempt still hold.
                if proof.method == .totp, let id = user?.id { judgedUser = try await store.user(id: id) }
            }
        }
        throw Problem.contention
    }

    private func logProof(_ method: AuthenticationMethod, passed: Bool?, on challengeID: String) {
        let outcome = switch passed {
        case true?: "accepted"
        case false?: "rejected"
        case nil: "replayed"
        }
        logger.debug("proof evaluated", metadata: ["challenge": "\(challengeID)", "method": "\(method.rawValue)", "outcome": "\(outcome)"])
    }

    /// Why `method` cannot be taken by the challenge as it is: closed, expired, another proof
    /// being checked, or (deferred) its category already in the round.
    private static func checkClaim(_ method: AuthenticationMethod, on challenge: ChallengeRecord, now: Date) throws {
        if let closed = challenge.closedState(at: now) { throw Problem.challengeClosed(closed) }
        guard challenge.pendingMethod == nil else { throw Problem.proofInProgress }
        if challenge.verdict == .deferred, challenge.collectedCategories.contains(method.category) {
            throw Problem.categoryAlreadyCollected(method.category)
        }
    }

    /// Whether a proof on `challenge` begins an attempt: every proof under the immediate
    /// verdict; under the deferred one only the first proof of a round (the round is the attempt).
    private static func startsAttempt(on challenge: ChallengeRecord) -> Bool {
        challenge.verdict == .immediate || (challenge.acceptedMethods + challenge.rejectedMethods).isEmpty
    }

    /// Marks `method` as the proof this challenge is checking and, when it begins an attempt,
    /// reserves that attempt, in one write: counted before it is checked, so parallel guesses
    /// (on other challenges) can never exceed the limit. One at a time: a round can then
    /// never take two guesses at one element, and of a right code sent many times at once one
    /// is checked while the others are refused unevaluated and uncounted.
    /// - Returns: the claimed challenge, and whether an attempt was reserved.
    /// - Throws: 409 `sca.proof_in_progress`, `sca.category_already_collected` (deferred: the
    ///   round holds that category already) or a closed challenge; 423, 429 from the lockout
    ///   (nothing is claimed then).
    private func claim(
        _ method: AuthenticationMethod, on loaded: ChallengeRecord, subject: LockoutSubject
    ) async throws -> (ChallengeRecord, startsAttempt: Bool) {
        try await CompareAndSet.retrying(from: loaded, reload: { try await load(loaded.id) }) { challenge in
            try Self.checkClaim(method, on: challenge, now: runtime.now())
            let startsAttempt = Self.startsAttempt(on: challenge)
            var next = challenge
            next.pendingMethod = method
            let commit = ProofCommit(
                challenge: next, expectedVersion: challenge.version,
                lockout: startsAttempt ? lockout.change(for: subject, reserve: true, settlement: .keep) : nil)
            switch try await store.commitProof(commit) {
            case .committed:
                next.version += 1
                return (next, startsAttempt)
            case .refused(let reservation):
                throw lockout.problem(for: reservation)
            case .versionConflict, .factorUsed:
                return nil
            }
        }
    }

    /// Lets go of a claimed proof that was refused without a judgement (busy, replayed, locked).
    /// Best effort: the claim ends with the challenge anyway.
    private func unclaim(_ method: AuthenticationMethod, on challengeID: String) async {
        await releaseClaim(on: challengeID) { $0 == method }
    }

    /// Ends a proof's claim on the challenge while `claimed` holds for its pending method.
    /// Best effort: a store error or a challenge gone leaves it to end with the challenge.
    func releaseClaim(on challengeID: String, while claimed: (AuthenticationMethod?) -> Bool) async {
        _ = try? await CompareAndSet.retrying(reload: { try await store.challenge(id: challengeID) }) { challenge in
            guard let challenge, claimed(challenge.pendingMethod) else { return true }
            var next = challenge
            next.pendingMethod = nil
            return try await store.updateChallenge(next, expectedVersion: challenge.version) ? true : nil
        }
    }

    /// Adds one judged proof to the challenge, ends its claim, settles its attempt and decides,
    /// in one compare-and-set write with everything else the proof changes, so of many
    /// parallel proofs exactly one completes the challenge, and a proof that loses the race
    /// changes nothing before it is decided again on the challenge as it now is.
    private func record(_ proof: JudgedProof, on loaded: ChallengeRecord) async throws -> (response: ProofResponse, consent: ConsentRecord?) {
        try await CompareAndSet.retrying(from: loaded, reload: { try await load(loaded.id) }) { challenge in
            // A valid signature seen before on this challenge (in any round): only the device
            // could make it. Not a guess: refused (once is once), and nothing of it counted. The
            // challenge as loaded is the one the commit compares against, so a parallel proof
            // with the same signature either is seen here or makes this commit lose the race.
            if let burn = proof.burn, challenge.usedSignatures.contains(burn) {
                await audit.record(
                    .proofRejected, outcome: "replayed", userID: proof.user?.id, deviceID: proof.device?.id,
                    challengeID: challenge.id, method: proof.method)
                throw Problem.codeAlreadyUsed
            }
            let step = try await decide(proof, on: challenge)
            switch try await store.commitProof(step.commit) {
            case .committed(let lockoutStep, let device, _, let consentStored):
                var consent: ConsentRecord?
                if consentStored, let decision = step.consent {
                    audit.committed([decision.event])
                    consent = decision.change.consent
                    consent?.version += 1
                }
                return (try await finish(proof, step, lockout: lockoutStep, device: device), consent)
            case .refused(let reservation):
                throw lockout.problem(for: reservation)
            case .factorUsed:
                // Nothing was applied: the caller judges the factor again.
                throw FactorUsedMeanwhile()
            case .versionConflict:
                return nil
            }
        }
    }

    /// What `proof` does to `challenge` as loaded: pure, except for signing the tokens of a
    /// completing proof.
    private func decide(_ proof: JudgedProof, on challenge: ChallengeRecord) async throws -> RecordStep {
        let now = runtime.now()
        var reserve = false
        var startsAttempt = false
        switch proof.claim {
        case .claimed(let reserved):
            startsAttempt = reserved
        case .unclaimed:
            try Self.checkClaim(proof.method, on: challenge, now: now)
            startsAttempt = Self.startsAttempt(on: challenge)
            reserve = startsAttempt
        }
        let user = proof.user
        var events = [
            audit.prepare(
                proof.passed ? .proofAccepted : .proofRejected, outcome: proof.passed ? "accepted" : "rejected",
                userID: user?.id, deviceID: proof.device?.id, challengeID: challenge.id, method: proof.method,
                details: proof.details.merging(user == nil ? ["user": "unknown"] : [:]) { $1 })
        ]
        var next = challenge
        if next.pendingMethod == proof.method { next.pendingMethod = nil }
        if let burn = proof.burn { next.usedSignatures.append(burn) }
        // How an attempt that does not complete the challenge is settled. Immediate: a right
        // proof gives it back, a wrong one keeps it as a failure. Deferred: the round's one
        // attempt stays counted as failed, right or wrong: only a completed challenge forgives it.
        let settlement: LockoutPlan.Settlement =
            if challenge.verdict == .immediate { proof.passed ? .release : .failure } else { startsAttempt ? .failure : .keep }
        let outcome: RecordStep.Outcome
        var session: SessionOpening?
        var tokens: TokenResponse?
        var consent: ConsentDecision?
        var risk: RiskCompletion?
        var finalSettlement = settlement
        if let closed = challenge.closedState(at: now) {
            // Closed while the proof was checked: the attempt is settled, nothing is collected.
            outcome = .closed(closed)
        } else {
            next.collect(proof.method, passed: proof.passed, extra: proof.extra)
            // A discoverable login belongs to the user its passkey named once it is proven.
            if proof.passed, next.isDiscoverable, let user { next.userID = user.id }
            let collected = next.collectedCategories
            let decided = collected.count >= next.requiredCategories
            if !proof.passed && next.verdict == .immediate {
                outcome = .rejected
            } else if decided && next.rejectedMethods.isEmpty, let user {
                next.state = .completed
                next.completedAt = now
                finalSettlement = .success
                let prepared = try await self.tokens.prepare(for: next, userID: user.id, user: user)
                session = prepared.opening
                tokens = prepared.response
                consent = await proof.deciding?(prepared.response)
                // The payment authorised (or account information's 180 days started) in the
                // proof's own write.
                risk = RiskCompletion(completing: next, userID: user.id, at: now)
                events.append(prepared.audit)
                events.append(
                    audit.prepare(
                        .challengeCompleted, userID: user.id, deviceID: next.deviceID, challengeID: next.id,
                        operation: next.operation, details: ["methods": next.acceptedMethods.map(\.rawValue).joined(separator: ",")]))
                outcome = .completed
            } else if decided {
                // Deferred verdict: something was wrong. Discard what was collected and let the
                // user try again on the same challenge, without saying which element failed:
                // the round was counted once when it began, whatever it held.
                next.discardRound()
                events.append(
                    audit.prepare(.challengeFailed, outcome: "failure", userID: user?.id, challengeID: next.id, operation: next.operation))
                outcome = .failed
            } else {
                outcome = .partial(collected: collected.sorted(), remaining: next.requiredCategories - collected.count)
            }
        }
        // A failure answer tells the failures left, so the counters are read (and kept) even
        // when nothing else changes them.
        let needsLockout = reserve || finalSettlement != .keep || outcome == .failed
        var device: DeviceChange?
        if let signer = proof.device {
            device = proof.passed
                ? .success(deviceID: signer.id, now: now) : .failure(deviceID: signer.id, maximumFailures: verifier.maxDeviceFailures)
        }
        // A proof that claimed nothing is checked against the version it was decided on even
        // when it changes nothing in the challenge (a second right signature for a method
        // already accepted): an answer is never decided on a challenge that moved meanwhile.
        let commit = ProofCommit(
            challenge: next != challenge || proof.claim == .unclaimed ? next : nil, expectedVersion: challenge.version,
            lockout: needsLockout ? lockout.change(for: proof.subject, reserve: reserve, settlement: finalSettlement) : nil,
            factor: proof.passed ? proof.factor : nil, device: device, session: session, audit: events.map(\.draft),
            consent: consent?.change, risk: risk)
        return RecordStep(commit: commit, challenge: next, outcome: outcome, tokens: tokens, events: events, consent: consent)
    }

    /// After the commit: counters, announcements, best-effort follow-ups, and the answer.
    private func finish(
        _ proof: JudgedProof, _ step: RecordStep, lockout lockoutStep: LockoutStep?, device: DeviceRecord?
    ) async throws -> ProofResponse {
        audit.committed(step.events)
        if let device, device.status == .blocked, proof.device?.status == .active {
            // This failure blocked the device at its limit; the trail records that here.
            await audit.record(
                .deviceBlocked, outcome: "failure_limit", userID: proof.user?.id, deviceID: device.id,
                challengeID: step.challenge.id, details: ["from": "active", "to": "blocked", "failCount": "\(device.failCount)"])
        }
        var remaining = 0
        if case .applied(let failure, let left)? = lockoutStep {
            remaining = left
            if let failure, let now = step.commit.lockout?.plan.now {
                await lockout.announce(failure, for: proof.subject, now: now)
                // The attempt that reaches the limit is answered like any wrong one, with
                // nothing left; the block shows as 423 from the next attempt on. So every
                // evaluated guess is one 401, and a refused one never is.
                if step.challenge.verdict == .immediate {
                    if case .counted(let left) = failure { remaining = left } else { remaining = 0 }
                }
            }
        }
        switch step.outcome {
        case .closed(let state):
            if !proof.passed && step.challenge.verdict == .immediate { throw Problem.proofRejected(remaining: remaining) }
            throw Problem.challengeClosed(state)
        case .rejected:
            throw Problem.proofRejected(remaining: remaining)
        case .failed:
            throw Problem.authenticationFailed(remaining: remaining)
        case .completed:
            guard proof.user != nil, let tokens = step.tokens else { throw Problem.contention }
            logger.debug("challenge completed", metadata: ["challenge": "\(step.challenge.id)"])
            return ProofResponse(satisfiedCategories: step.challenge.acceptedCategories.sorted(), tokens: tokens)
        case .partial(let collected, let left):
            // Deferred: rejected elements count as collected, so nothing is revealed yet.
            var partial = ProofResponse(status: .partial, satisfiedCategories: collected, remainingCategories: left)
            // What to prove next (a sign-up-or-in shows its other methods only now).
            partial.methods = step.challenge.offeredMethods.map(OfferedMethod.init)
            return partial
        }
    }

    /// Loads a challenge, turning a pending one past its lifetime into `expired`.
    private func load(_ challengeID: String) async throws -> ChallengeRecord {
        guard InputRules.isWellFormedID(challengeID, prefix: "ch"), let challenge = try await store.challenge(id: challengeID) else {
            throw Problem.challengeNotFound
        }
        return try await expireIfDue(challenge)
    }

    /// A pending challenge past its lifetime, turned `expired` (recorded once); any other as it is.
    private func expireIfDue(_ loaded: ChallengeRecord) async throws -> ChallengeRecord {
        let challengeID = loaded.id
        var challenge = loaded
        if challenge.state == .pending, challenge.closedState(at: runtime.now()) == .expired {
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

    /// The user a request names (by login phone, id or e-mail; none for a discoverable login)
    /// and the device it names, each checked for form before one read
    /// (``SCAStore/challengeContext(user:deviceID:)``).
    /// - Throws: `Problem.invalidRequest` for a malformed reference; nothing is read then.
    private func lookUp(_ request: CreateChallengeRequest, loginPhone: String?, discoverable: Bool) async throws -> ChallengeContext {
        let lookup: UserLookup? =
            if let loginPhone { .loginPhone(loginPhone) } else if discoverable { nil } else { try Self.userLookup(request.user) }
        var deviceID: String?
        if let reference = request.device {
            guard InputRules.isWellFormedID(reference.deviceId, prefix: "dev") else {
                throw Problem.invalidRequest("device.deviceId is malformed")
            }
            deviceID = reference.deviceId
        }
        guard lookup != nil || deviceID != nil else { return ChallengeContext(user: nil, device: nil) }
        return try await store.challengeContext(user: lookup, deviceID: deviceID)
    }

    /// The device a request names: it must exist, be the user's, and be active. An unknown
    /// user has no devices, so a decoy answers like a real user naming someone else's device.
    /// - Parameter found: the device read by the id `reference` names.
    /// - Throws: `Problem` 404 `device.not_found`, 403 `device.blocked` / `device.removed`.
    private static func namedDevice(_ reference: DeviceReference?, found: DeviceRecord?, of user: UserRecord?) throws -> DeviceRecord? {
        guard reference != nil else { return nil }
        guard let user, let device = found, device.userID == user.id else { throw Problem.deviceNotFound }
        guard device.status == .active else { throw Problem.deviceUnusable(device.status) }
        return device
    }

    private static func userLookup(_ reference: UserReference) throws -> UserLookup {
        switch (reference.email, reference.userId) {
        case (let email?, nil):
            let normalized = InputRules.normalizedEmail(email)
            if let problem = InputRules.emailProblem(normalized) { throw Problem.invalidRequest("user.\(problem)") }
            return .email(normalized)
        case (nil, let userID?):
            guard InputRules.isWellFormedID(userID, prefix: "usr") else { throw Problem.invalidRequest("user.userId is malformed") }
            return .id(userID)
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
            verdict: challenge.verdict, methods: challenge.offeredMethods.map(OfferedMethod.init), nonce: challenge.nonce,
            transactionDigest: challenge.transactionDigest,
            display: challenge.transaction.map {
                TransactionDisplay(
                    amount: $0.amount, currency: $0.currency, payee: $0.payee.name,
                    iban: $0.payee.iban.map(TransactionRules.maskedIBAN))
            }, exemption: challenge.exemption)
    }
}
