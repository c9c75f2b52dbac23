import Crypto
import Foundation
import SCACore
import SCAStorage

/// Checks one typed factor against what is enrolled. A one-time factor is judged on what was
/// read, without a write: a right one comes back with its ``FactorUse``, which the proof's commit
/// applies as a compare-and-set (``SCAStore/commitProof(_:)``), so "once" still holds.
struct FactorVerifier: EngineService, Sendable {
    let context: EngineContext
    let hasher: PasswordHasher
    /// Where scrypt runs: bounded, so a burst of password proofs queues or is refused.
    let hashing: PasswordHashingPool
    let maxDeviceFailures: Int
    /// A hash of a random secret with the configured parameters: decoys verify against it so an
    /// unknown user costs the same time as a known one.
    let decoyHash: String

    /// The shape a credential must have before it is worth an attempt; a malformed one is a
    /// bad request, not a guess.
    static func credentialProblem(for proof: ProofRequest) -> String? {
        // A passkey carries an assertion; `passkey_uv` is refused as a method never offered.
        if proof.method == .passkey { return PasskeyProofs.assertionProblem(proof.assertion) }
        guard proof.method.isProvable else { return nil }
        if proof.method.isDeviceSignature {
            guard let deviceID = proof.deviceId, InputRules.isWellFormedID(deviceID, prefix: "dev") else {
                return "deviceId is required for \(proof.method.rawValue)"
            }
            guard let signature = proof.signature.flatMap(Base64URL.decode), signature.count == 64 else {
                return "signature must be a 64-byte raw ECDSA signature in base64url"
            }
            return nil
        }
        guard let credential = proof.credential, !credential.isEmpty else { return "credential is required for \(proof.method.rawValue)" }
        guard credential.utf8.count <= InputRules.maxCredentialLength else { return "credential is too long" }
        switch proof.method {
        case .password: return nil
        case .pin: return InputRules.pinProblem(credential)
        case .totp, .smsOTP, .emailOTP:
            return InputRules.isDigits(credential, count: 6) ? nil : "credential must be 6 digits"
        case .deviceKey, .biometricKey, .passkey, .passkeyUserVerified: return nil
        }
    }

    /// - Parameter user: as read for this proof; its last accepted TOTP step is what a TOTP
    ///   code is judged against (a step accepted since makes the commit's use fail).
    /// - Returns: right (with the one-time factor it uses), wrong, or a right code presented
    ///   again (not a guess). Nothing is written.
    /// - Throws: ``PasswordHashingBusy`` when the hashing queue is full (nothing was
    ///   evaluated), or an I/O failure.
    func verify(_ proof: ProofRequest, user: UserRecord, challenge: ChallengeRecord) async throws -> FactorJudgement {
        let credential = proof.credential ?? ""
        switch proof.method {
        case .password, .pin:
            let stored = proof.method == .password ? user.passwordHash : user.pinHash
            let right = try await verifySecret(credential, against: stored)
            if right, let stored, hasher.needsRehash(stored) {
                await rehash(credential, replacing: stored, of: user, method: proof.method)
            }
            return right ? .right(use: nil) : .wrong
        case .totp:
            guard let sealed = user.sealedTOTPSeed else { return .wrong }
            let seed = try box.open(sealed, context: UserService.totpSealingContext)
            guard let step = TOTP(secret: seed).matchingStep(for: credential, at: runtime.now(), drift: 1) else {
                return .wrong
            }
            // A code is accepted once: its step is burnt for this user, older steps with it. A
            // code of a burnt step is a right code seen before (a replay, or the loser of a
            // race with the same code), not a guess.
            return .totpStep(step, userID: user.id, lastAccepted: user.lockout.lastTOTPStep)
        case .smsOTP, .emailOTP:
            return try await checkDeliveredCode(proof, on: challenge)
        case .deviceKey, .biometricKey, .passkey, .passkeyUserVerified:
            // Judged by `signatureBurn` (committed with the proof) and PasskeyProofs, never
            // here: reaching this is the server's fault, never the user's wrong guess.
            throw Problem.internalError
        }
    }

    /// A delivered code against the challenge's stored one, read and judged: used by the
    /// proof's commit when right. It is bound to the challenge, so no user is needed.
    func checkDeliveredCode(_ proof: ProofRequest, on challenge: ChallengeRecord) async throws -> FactorJudgement {
        let hash = Self.codeHash(box: box, code: proof.credential ?? "", method: proof.method, challenge: challenge)
        let stored = try await store.oneTimeCode(challengeID: challenge.id, method: proof.method)
        return .deliveredCode(hash, against: stored, now: runtime.now())
    }

    /// A delivered code, consumed at once in a write of its own: for a sign-up challenge (a
    /// sign-up challenge has no user yet), whose right code completes it without a
    /// proof's commit.
    func consumeDeliveredCode(_ proof: ProofRequest, on challenge: ChallengeRecord) async throws -> FactorJudgement {
        let hash = Self.codeHash(box: box, code: proof.credential ?? "", method: proof.method, challenge: challenge)
        switch try await store.consumeCode(challengeID: challenge.id, method: proof.method, codeHash: hash, now: runtime.now()) {
        case .consumed: return .right(use: nil)  // used up already, by this write
        case .alreadyUsed: return .replayed
        case .rejected: return .wrong
        }
    }

    /// ECDSA P-256 over exactly the payload of openapi.yaml's `ProofRequest`: method, challenge,
    /// nonce, operation and transaction digest, so a signature is worth nothing for anything
    /// else. Pure: what it means for the store (a wrong one counts against the device, a right
    /// one is burnt on its challenge, accepted once) is committed with the proof (``SCAStore/commitProof(_:)``).
    /// - Returns: the burn of a valid signature (the hash that makes it count once), nil for a
    ///   wrong one.
    func signatureBurn(_ proof: ProofRequest, by device: DeviceRecord, challenge: ChallengeRecord) -> [UInt8]? {
        let key = proof.method == .deviceKey ? device.possessionKey : device.biometryKey
        guard let key, let signature = proof.signature.flatMap(Base64URL.decode) else { return nil }
        let payload = DeviceSignature.payload(
            method: proof.method, challengeID: challenge.id, nonce: challenge.nonce, operation: challenge.operation,
            transactionDigest: challenge.transactionDigest)
        guard DeviceSignature.isValid(signature: signature, over: payload, publicKey: key) else { return nil }
        // Burn by r, not by the whole signature: (r, s) and (r, n - s) are both valid, and a
        // replay must not pass by flipping s. A fresh signature has a fresh r.
        let burn = SHA256.hash(data: Array("\(challenge.id)|\(proof.method.rawValue)|".utf8) + signature.prefix(32))
        return Array(burn)
    }

    /// Does the work a real check would, for a decoy challenge: a password hash for knowledge,
    /// a code read and judged for delivered codes (a decoy's codes are stored, never sent).
    func imitateVerification(of proof: ProofRequest, on challenge: ChallengeRecord) async throws {
        switch proof.method {
        case .password, .pin:
            _ = try await verifySecret(proof.credential ?? "", against: decoyHash)
        case .smsOTP, .emailOTP:
            _ = try await checkDeliveredCode(proof, on: challenge)
        case .totp, .deviceKey, .biometricKey, .passkey, .passkeyUserVerified:
            break
        }
    }

    /// The stored form of a delivered code: keyed by the server key and bound to the challenge,
    /// the method and (for payments) the transaction digest, so a code is worth nothing elsewhere.
    static func codeHash(box: SecretBox, code: String, method: AuthenticationMethod, challenge: ChallengeRecord) -> [UInt8] {
        let message = "\(challenge.id)|\(method.rawValue)|\(challenge.transactionDigest ?? "-")|\(code)"
        return box.mac(Array(message.utf8), purpose: "one-time-code")
    }

    /// A knowledge element checked outside a challenge (a recovery). scrypt runs even when
    /// the user has no such element, against the decoy, so the answer's time does not say
    /// which elements they have.
    /// - Throws: ``PasswordHashingBusy`` when the hashing queue is full.
    func verifyKnowledge(_ secret: String, against phc: String?) async throws -> Bool {
        guard let phc else {
            _ = try await verifySecret(secret, against: decoyHash)
            return false
        }
        return try await verifySecret(secret, against: phc)
    }

    /// Replaces a hash the login just verified with this server's own (an imported bcrypt,
    /// argon2id or PBKDF2 hash, or scrypt of a lower cost), unless it changed meanwhile. A
    /// failure is logged and leaves the old hash, which still verifies: the next login tries
    /// again.
    private func rehash(_ secret: String, replacing stored: String, of user: UserRecord, method: AuthenticationMethod) async {
        let hasher = self.hasher
        do {
            let fresh = try await hashing.run(.hash) { try hasher.hash(secret) }
            let update =
                method == .password
                ? UserUpdate(passwordHash: fresh, precondition: .passwordHash(stored))
                : UserUpdate(pinHash: fresh, precondition: .pinHash(stored))
            _ = try await store.updateUser(id: user.id, update)
            logger.info("stored hash replaced at login", metadata: ["user": "\(user.id)", "method": "\(method.rawValue)"])
        } catch {
            logger.warning(
                "stored hash not replaced at login",
                metadata: ["user": "\(user.id)", "error": "\(String(describing: type(of: error)))"])
        }
    }

    /// - Throws: ``PasswordHashingBusy`` when the hashing queue is full.
    private func verifySecret(_ secret: String, against phc: String?) async throws -> Bool {
        guard let phc else { return false }
        let hasher = self.hasher
        return try await hashing.run(.verify) { hasher.verify(secret, against: phc) }
    }
}
