import Foundation
import SCACore
import SCAStorage

/// Checks one typed factor against what is enrolled. Every "once" rule is a store operation:
/// a TOTP step is burnt, a delivered code is consumed.
struct FactorVerifier: Sendable {
    let store: any SCAStore
    let hasher: PasswordHasher
    let box: SecretBox
    let runtime: ServerRuntime
    /// A hash of a random secret with the configured parameters: decoys verify against it so an
    /// unknown user costs the same time as a known one.
    let decoyHash: String

    /// The shape a credential must have before it is worth an attempt; a malformed one is a
    /// bad request, not a guess.
    static func credentialProblem(for proof: ProofRequest) -> String? {
        guard !proof.method.isDeviceSignature else { return nil }
        guard let credential = proof.credential, !credential.isEmpty else { return "credential is required for \(proof.method.rawValue)" }
        guard credential.utf8.count <= InputRules.maxCredentialLength else { return "credential is too long" }
        switch proof.method {
        case .password: return nil
        case .pin: return InputRules.pinProblem(credential)
        case .totp, .smsOTP, .emailOTP:
            return InputRules.isDigits(credential, count: 6) ? nil : "credential must be 6 digits"
        case .deviceKey, .biometricKey: return nil
        }
    }

    /// - Returns: whether the proof is right. Throws only for I/O failures.
    func verify(_ proof: ProofRequest, user: UserRecord, challenge: ChallengeRecord) async throws -> Bool {
        let credential = proof.credential ?? ""
        switch proof.method {
        case .password:
            return await verifySecret(credential, against: user.passwordHash)
        case .pin:
            return await verifySecret(credential, against: user.pinHash)
        case .totp:
            guard let sealed = user.sealedTOTPSeed else { return false }
            let seed = try box.open(sealed, context: UserService.totpSealingContext)
            guard let step = TOTP(secret: seed).matchingStep(for: credential, at: runtime.now(), drift: 1) else {
                return false
            }
            // A code is accepted once: its step is burnt for this user, older steps with it.
            return try await store.acceptTOTPStep(userID: user.id, step: step)
        case .smsOTP, .emailOTP:
            let hash = Self.codeHash(box: box, code: credential, method: proof.method, challenge: challenge)
            return try await store.consumeCode(challengeID: challenge.id, method: proof.method, codeHash: hash, now: runtime.now())
        case .deviceKey, .biometricKey:
            return false  // Devices are not bound yet; the methods are never offered.
        }
    }

    /// Spends the time a real check would, for a decoy challenge.
    func imitateVerification(of proof: ProofRequest) async {
        if proof.method.category == .knowledge {
            _ = await verifySecret(proof.credential ?? "", against: decoyHash)
        }
    }

    /// The stored form of a delivered code: keyed by the server key and bound to the challenge,
    /// the method and (for payments) the transaction digest, so a code is worth nothing elsewhere.
    static func codeHash(box: SecretBox, code: String, method: AuthenticationMethod, challenge: ChallengeRecord) -> [UInt8] {
        let message = "\(challenge.id)|\(method.rawValue)|\(challenge.transactionDigest ?? "-")|\(code)"
        return box.mac(Array(message.utf8), purpose: "one-time-code")
    }

    private func verifySecret(_ secret: String, against phc: String?) async -> Bool {
        guard let phc else { return false }
        let hasher = self.hasher
        return await BlockingWork.run { hasher.verify(secret, against: phc) }
    }
}
