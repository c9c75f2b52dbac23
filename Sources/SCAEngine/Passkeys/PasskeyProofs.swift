import Crypto
import Foundation
import Logging
import SCACore
import SCAStorage
import SCAWebAuthn

/// A passkey as a challenge's proof: the request options a challenge offers,
/// and the check of an assertion against the challenge it was made for.
///
/// The WebAuthn challenge is derived from ours (``webAuthnChallenge(for:)``), so nothing more
/// is stored: an assertion is bound to one challenge, its operation and, for a payment, the
/// transaction digest (amount and payee), and is worth nothing once the challenge is closed.
struct PasskeyProofs: Sendable {
    let passkeys: PasskeyService

    var store: any SCAStore { passkeys.store }
    var configuration: ServerConfiguration { passkeys.configuration }
    var runtime: ServerRuntime { passkeys.runtime }

    /// What checking an assertion found, and what it proved besides possession.
    struct Outcome: Sendable {
        var judgement: FactorJudgement
        /// The second category of a user-verified assertion; for a wrong one, what its
        /// authenticator data claimed (a deferred round counts it as collected).
        var extraCategory: Category?
        /// The failed check or the passkey used, for the audit trail.
        var details: [String: String]
    }

    /// SHA-256 of the device-signature payload for `passkey` (version, method, challenge id,
    /// nonce, operation, transaction digest or `-`): deterministic, and different for every
    /// challenge, operation and transaction.
    static func webAuthnChallenge(for challenge: ChallengeRecord) -> [UInt8] {
        let payload = DeviceSignature.payload(
            method: .passkey, challengeID: challenge.id, nonce: challenge.nonce, operation: challenge.operation,
            transactionDigest: challenge.transactionDigest)
        return Array(SHA256.hash(data: payload))
    }

    /// Whether this server has a WebAuthn relying party at all.
    var isAvailable: Bool { configuration.relyingParty != nil }

    /// Whether a `login` may start without an e-mail, for a discoverable passkey.
    var offersDiscoverableLogin: Bool {
        configuration.relyingParty != nil && configuration.policy(for: .login).methods.contains(.passkey)
    }

    /// Whether the user has a passkey a challenge can offer (active; a suspect one is not),
    /// from the count kept on the user's row: no read of its own.
    func hasUsablePasskey(_ user: UserRecord) -> Bool {
        configuration.relyingParty != nil && user.activePasskeys > 0
    }

    /// A discoverable challenge demands user verification: its one proof must prove two categories.
    func requiresUserVerification(_ challenge: ChallengeRecord) -> Bool {
        challenge.isDiscoverable || configuration.webauthnUserVerification == .required
    }

    /// `PublicKeyCredentialRequestOptions` for a pending challenge that offers `passkey`: the
    /// user's active passkeys (none for a discoverable challenge: the authenticator offers its own).
    func options(for challenge: ChallengeRecord) async throws -> PasskeyRequestOptions? {
        guard challenge.state == .pending, challenge.methods.contains(.passkey), let party = configuration.relyingParty else {
            return nil
        }
        var allowed: [PasskeyCredentialDescriptor] = []
        if let userID = challenge.userID {
            allowed = try await store.passkeys(userID: userID).filter { $0.status == .active }
                .map { PasskeyCredentialDescriptor(id: Base64URL.encode($0.credentialID)) }
        }
        let remaining = max(0, challenge.expiresAt.timeIntervalSince(runtime.now()))
        return PasskeyRequestOptions(
            challenge: Base64URL.encode(Self.webAuthnChallenge(for: challenge)), timeout: Int(remaining * 1_000),
            rpId: party.id, allowCredentials: allowed,
            userVerification: requiresUserVerification(challenge) ? "required" : "preferred")
    }

    /// The owner of a discoverable assertion: the credential must be registered and the user
    /// handle the authenticator returned must be its owner's. Nil otherwise (answered like a
    /// wrong proof, so it reveals nothing about which credentials exist).
    func owner(of proof: ProofRequest) async throws -> UserRecord? {
        guard let assertion = proof.assertion, let credentialID = Base64URL.decode(assertion.rawId),
            let handle = assertion.response.userHandle.flatMap(Base64URL.decode),
            let passkey = try await store.passkey(credentialID: credentialID),
            ConstantTime.equals(handle, passkeys.userHandle(for: passkey.userID))
        else { return nil }
        return try await store.user(id: passkey.userID)
    }

    /// Checks an assertion made for `challenge` by one of `user`'s passkeys. A counter that
    /// went backwards marks the passkey suspect (audited); the same assertion presented again
    /// is a replay, refused without being counted.
    func verify(_ proof: ProofRequest, user: UserRecord, challenge: ChallengeRecord) async throws -> Outcome {
        guard let party = configuration.relyingParty, let assertion = proof.assertion,
            let response = Self.decode(assertion)
        else { return Outcome(judgement: .wrong, details: ["reason": "malformed"]) }
        let userVerifiedCategory = configuration.webauthnUserVerifiedCategory
        let claimed = claimedCategory(response, on: challenge)
        func wrong(_ reason: String, passkey: PasskeyRecord? = nil) -> Outcome {
            var details = ["reason": reason]
            details["passkey"] = passkey?.id
            return Outcome(judgement: .wrong, extraCategory: claimed, details: details)
        }
        guard let passkey = try await store.passkey(credentialID: response.credentialId), passkey.userID == user.id else {
            return wrong("unknownCredential")
        }
        guard passkey.status == .active else { return wrong("suspect", passkey: passkey) }
        // The signed bytes identify an assertion: a replay carries the same ones (a fresh
        // assertion has fresh authenticator data or client data, or its signature fails).
        let burn = Array(
            SHA256.hash(
                data: Array("passkey|\(challenge.id)|".utf8) + response.authenticatorData
                    + Array(SHA256.hash(data: response.clientDataJSON))))
        let verified: VerifiedAssertion
        do {
            verified = try party.verifyAssertion(
                response, expectedChallenge: Self.webAuthnChallenge(for: challenge),
                credential: StoredCredential(
                    credentialId: passkey.credentialID, publicKey: passkey.publicKey,
                    signCount: UInt32(clamping: passkey.signCount), backupEligible: passkey.backupEligible,
                    userHandle: passkeys.userHandle(for: user.id)),
                requireUserVerification: requiresUserVerification(challenge))
        } catch let error where error.code == .signCountRegressed {
            let stored = error.storedSignCount ?? 0, received = error.receivedSignCount ?? 0
            // A valid signature whose counter did not grow: the same assertion again (a
            // replay), or a cloned authenticator. Only the second marks the passkey suspect.
            guard try await store.markSignatureUsed(burn, expiresAt: challenge.expiresAt, now: runtime.now()) else {
                return Outcome(judgement: .replayed, details: ["passkey": passkey.id])
            }
            if let marked = try await store.markPasskeySuspect(id: passkey.id), marked.status == .suspect {
                passkeys.logger.warning(
                    "passkey counter regressed", metadata: ["passkey": "\(passkey.id)", "stored": "\(stored)", "received": "\(received)"])
                await passkeys.audit.record(
                    .passkeySuspect, outcome: "counter_regressed", userID: user.id, challengeID: challenge.id,
                    details: ["passkey": passkey.id, "storedSignCount": "\(stored)", "receivedSignCount": "\(received)"])
            }
            return wrong("signCountRegressed", passkey: passkey)
        } catch {
            return wrong(PasskeyService.reason(error), passkey: passkey)
        }
        guard try await store.markSignatureUsed(burn, expiresAt: challenge.expiresAt, now: runtime.now()) else {
            return Outcome(judgement: .replayed, details: ["passkey": passkey.id])
        }
        // Compare-and-set: of two assertions checked against the same stored counter, one lands.
        guard
            try await store.recordPasskeyUse(
                id: passkey.id, expectedSignCount: passkey.signCount, signCount: Int64(verified.signCount),
                backedUp: verified.flags.contains(.backedUp), now: runtime.now())
        else { return wrong("counterRace", passkey: passkey) }
        return Outcome(
            judgement: .right(use: nil), extraCategory: verified.userVerified ? userVerifiedCategory : nil,
            details: ["passkey": passkey.id, "userVerified": verified.userVerified ? "yes" : "no"])
    }

    /// An assertion no known user's credential made (discoverable login): wrong, and with
    /// what it claims counted as a known credential's wrong assertion would be.
    func unknownOwner(_ proof: ProofRequest, on challenge: ChallengeRecord) -> Outcome {
        Outcome(
            judgement: .wrong,
            extraCategory: proof.assertion.flatMap(Self.decode).flatMap { claimedCategory($0, on: challenge) },
            details: ["reason": "unknownCredential"])
    }

    /// The second category a wrong assertion counts as collected under the deferred verdict:
    /// what its authenticator data claims (UV set). A discoverable login's one proof is its
    /// whole round, so there it is always counted, and a wrong proof ends the round.
    private func claimedCategory(_ response: AssertionResponse, on challenge: ChallengeRecord) -> Category? {
        if challenge.isDiscoverable { return configuration.webauthnUserVerifiedCategory }
        guard let data = try? AuthenticatorData(response.authenticatorData), data.flags.contains(.userVerified) else { return nil }
        return configuration.webauthnUserVerifiedCategory
    }

    /// The shape an assertion must have before it is worth an attempt; a malformed one is a
    /// bad request, not a guess.
    static func assertionProblem(_ assertion: PasskeyAssertionCredential?) -> String? {
        guard let assertion, assertion.type == "public-key", assertion.id == assertion.rawId, decode(assertion) != nil else {
            return "assertion must be a public-key credential with base64url rawId, clientDataJSON, authenticatorData and signature"
        }
        return nil
    }

    private static func decode(_ assertion: PasskeyAssertionCredential) -> AssertionResponse? {
        let response = assertion.response
        guard let credentialID = Base64URL.decode(assertion.rawId), (1...1023).contains(credentialID.count),
            let clientData = Base64URL.decode(response.clientDataJSON), !clientData.isEmpty,
            let authenticatorData = Base64URL.decode(response.authenticatorData), !authenticatorData.isEmpty,
            let signature = Base64URL.decode(response.signature), !signature.isEmpty
        else { return nil }
        var userHandle: [UInt8]?
        if let text = response.userHandle {
            guard let decoded = Base64URL.decode(text) else { return nil }
            userHandle = decoded
        }
        return AssertionResponse(
            credentialId: credentialID, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature,
            userHandle: userHandle)
    }
}
