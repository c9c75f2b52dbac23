import Crypto
import Foundation
import Logging
import SCACore
import SCAStorage
import SCAWebAuthn

/// Passkeys as a user's credential: registration after SCA (RTS art. 24: binding a new element
/// needs a completed `settings_change` challenge), listing and removal. The relying party's
/// checks are ``RelyingParty``'s; what needs the store (a challenge used once, a credential id
/// not registered before, the per-user limit) is done here.
package struct PasskeyService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    /// A passkey added is alerted to its user on every channel.
    let alerts: SecurityAlerts

    /// Operations whose token may register a passkey: the user proved two categories for a
    /// sensitive change just now. A `login` token is not enough.
    static let registrationOperations: Set<OperationKind> = [.settingsChange]

    /// The default name of a passkey registered without one.
    static let defaultName = "Passkey"

    var relyingParty: RelyingParty? { configuration.relyingParty }

    // MARK: Registration

    /// `PublicKeyCredentialCreationOptions` for the token's user. The token is not spent here
    /// (the ceremony may be abandoned); registering spends it.
    /// - Throws: `Problem` 404 `passkey.unavailable`, 401, 403 `auth.forbidden`.
    package func registrationOptions(authorization: String?) async throws -> PasskeyCreationOptions {
        // The caller first (the token is only read): without credentials the answer is 401,
        // whatever this server offers.
        let claims = try await authorizeRegistration(authorization)
        guard let party = relyingParty else { throw Problem.passkeyUnavailable }
        guard let user = try await store.user(id: claims.sub.value) else { throw Problem.userNotFound }
        let existing = try await store.passkeys(userID: user.id)
        return PasskeyCreationOptions(
            rp: PasskeyRelyingParty(id: party.id, name: party.name),
            user: PasskeyUserEntity(id: Base64URL.encode(userHandle(for: user.id)), name: user.email, displayName: user.email),
            challenge: Base64URL.encode(registrationChallenge(for: user.id)),
            pubKeyCredParams: party.algorithms.map { PasskeyCredentialParameters(alg: Int($0.rawValue)) },
            timeout: configuration.challengeLifetime * 1_000,
            excludeCredentials: existing.map { PasskeyCredentialDescriptor(id: Base64URL.encode($0.credentialID)) },
            authenticatorSelection: PasskeyAuthenticatorSelection(),
            attestation: party.attestation.rawValue)
    }

    /// Verifies and stores a new passkey. Everything is checked before the token is spent, so
    /// a refused response costs the user no new SCA; the challenge is burnt before the token.
    /// - Throws: `Problem` 400 (`request.invalid`, `passkey.invalid`, `passkey.challenge_invalid`),
    ///   401, 403, 404 `passkey.unavailable`, 409 (`passkey.already_registered`, `passkey.limit_reached`).
    package func register(_ request: RegisterPasskeyRequest, authorization: String?) async throws -> PasskeyResponse {
        let claims = try await authorizeRegistration(authorization)
        guard let party = relyingParty else { throw Problem.passkeyUnavailable }
        let userID = claims.sub.value
        let name = try DeviceService.displayText(
            request.name ?? Self.defaultName, field: "name", maxLength: DisplayText.maxDeviceNameLength)
        let credential = request.credential
        guard credential.type == "public-key", credential.id == credential.rawId,
            let credentialID = Base64URL.decode(credential.rawId), !credentialID.isEmpty,
            let clientDataJSON = Base64URL.decode(credential.response.clientDataJSON),
            let attestationObject = Base64URL.decode(credential.response.attestationObject)
        else {
            throw Problem.invalidRequest("credential must be a public-key credential with base64url rawId, clientDataJSON and attestationObject")
        }
        // The challenge the browser signed: ours, for this user, unexpired (checked by its MAC
        // before anything else is looked at).
        guard let clientData = try? CollectedClientData(clientDataJSON),
            let expiresAt = checkRegistrationChallenge(clientData.challenge, for: userID)
        else {
            await refuse(userID: userID, reason: "challenge")
            throw Problem.passkeyChallengeInvalid
        }
        let verified: VerifiedRegistration
        do {
            verified = try party.verifyRegistration(
                RegistrationResponse(credentialId: credentialID, clientDataJSON: clientDataJSON, attestationObject: attestationObject),
                expectedChallenge: clientData.challenge, requireUserVerification: true)
        } catch {
            await refuse(userID: userID, reason: Self.reason(error))
            throw Problem.passkeyInvalid
        }
        // Cheap checks before spending anything; the store decides again atomically.
        if try await store.passkey(credentialID: verified.credentialId) != nil { throw Problem.passkeyAlreadyRegistered }
        if try await store.passkeys(userID: userID).count >= configuration.maxPasskeysPerUser { throw Problem.passkeyLimitReached }
        // Once is once: the registration challenge is burnt until it expires (after which its
        // MAC refuses it anyway).
        let burn = Array(SHA256.hash(data: Array("passkey-registration|".utf8) + clientData.challenge))
        guard try await store.markSignatureUsed(burn, expiresAt: expiresAt, now: runtime.now()) else {
            await refuse(userID: userID, reason: "challenge_reused")
            throw Problem.passkeyChallengeInvalid
        }
        try await tokens.consume(claims)
        let record = PasskeyRecord(
            id: runtime.makeID(prefix: "pk"), userID: userID, credentialID: verified.credentialId,
            publicKey: verified.publicKey.encoded, signCount: Int64(verified.signCount), backupEligible: verified.backupEligible,
            backedUp: verified.flags.contains(.backedUp), aaguid: verified.aaguid,
            attestationType: verified.attestationType.rawValue, attestationFormat: verified.attestationFormat, name: name,
            createdAt: runtime.now())
        switch try await store.registerPasskey(record, maximumPerUser: configuration.maxPasskeysPerUser) {
        case .registered(let stored):
            logger.info("passkey registered", metadata: ["user": "\(userID)", "passkey": "\(stored.id)"])
            await audit.record(
                .passkeyRegistered, userID: userID,
                details: [
                    "passkey": stored.id, "attestation": stored.attestationType, "format": stored.attestationFormat,
                    "backupEligible": stored.backupEligible ? "yes" : "no",
                ])
            if let owner = try? await store.user(id: userID) { await alerts.send(.passkeyAdded(name: stored.name), to: owner) }
            return Self.describe(stored)
        case .duplicateCredential: throw Problem.passkeyAlreadyRegistered
        case .limitReached: throw Problem.passkeyLimitReached
        }
    }

    // MARK: The user's and operators' passkeys

    package func passkeys(authorization: String?) async throws -> [PasskeyResponse] {
        let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo, .settingsChange], consume: false)
        return try await passkeys(of: claims.sub.value)
    }

    package func passkeys(of userID: String) async throws -> [PasskeyResponse] {
        try await store.passkeys(userID: userID).map(Self.describe)
    }

    /// Removing only takes power away: a login token is enough (but not from a restricted
    /// account: ``EngineService/refuseIfRestricted(_:)``).
    /// - Throws: `Problem.passkeyNotFound` (also for another user's passkey), `user.restricted`.
    package func remove(_ passkeyID: String, authorization: String?) async throws -> PasskeyResponse {
        let claims = try await tokens.authorize(authorization, for: [.login, .settingsChange], consume: false)
        try await refuseIfRestricted(claims.sub.value)
        return try await remove(passkeyID, owner: claims.sub.value)
    }

    /// - Parameter owner: when given, the passkey must belong to this user.
    /// - Throws: `Problem.passkeyNotFound`.
    package func remove(_ passkeyID: String, owner: String? = nil) async throws -> PasskeyResponse {
        guard InputRules.isWellFormedID(passkeyID, prefix: "pk"), let passkey = try await store.passkey(id: passkeyID),
            owner == nil || passkey.userID == owner
        else { throw Problem.passkeyNotFound }
        guard try await store.deletePasskey(id: passkey.id) else { throw Problem.passkeyNotFound }
        logger.info("passkey removed", metadata: ["passkey": "\(passkey.id)"])
        await audit.record(.passkeyRemoved, userID: passkey.userID, details: ["passkey": passkey.id, "name": passkey.name])
        return Self.describe(passkey)
    }

    // MARK: Helpers

    /// The user handle authenticators keep: a keyed hash of the user id, opaque (never the
    /// e-mail) and stable, so a re-registration on one authenticator replaces its old passkey.
    func userHandle(for userID: String) -> [UInt8] {
        box.mac(Array("passkey-user|\(userID)".utf8), purpose: "webauthn-user-handle")
    }

    /// 16 random bytes, the expiry (unix seconds, 8 bytes big-endian) and a MAC over both and
    /// the user: single use comes from the used-signature store when it is redeemed, so no
    /// table holds pending registrations and any instance can check it.
    func registrationChallenge(for userID: String) -> [UInt8] {
        let expiresAt = UInt64(runtime.now().addingTimeInterval(TimeInterval(configuration.challengeLifetime)).timeIntervalSince1970)
        let body = runtime.random.bytes(16) + (0..<8).map { UInt8(truncatingIfNeeded: expiresAt >> (56 - 8 * $0)) }
        return body + registrationMAC(body, userID: userID)
    }

    /// - Returns: the challenge's expiry when it is ours, for `userID` and unexpired.
    func checkRegistrationChallenge(_ challenge: [UInt8], for userID: String) -> Date? {
        guard challenge.count == 56 else { return nil }
        let body = Array(challenge.prefix(24))
        guard ConstantTime.equals(Array(challenge.suffix(32)), registrationMAC(body, userID: userID)) else { return nil }
        let seconds = body.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let expiresAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        return runtime.now() < expiresAt ? expiresAt : nil
    }

    private func registrationMAC(_ body: [UInt8], userID: String) -> [UInt8] {
        box.mac(Array("\(userID)|".utf8) + body, purpose: "webauthn-registration")
    }

    private func authorizeRegistration(_ authorization: String?) async throws -> AccessTokenClaims {
        do {
            return try await tokens.authorize(authorization, for: Self.registrationOperations, consume: false)
        } catch let problem as Problem where problem.code == .forbidden {
            var named = problem
            named.detail = "Registering a passkey needs the token of a completed settings_change challenge."
            throw named
        }
    }

    private func refuse(userID: String, reason: String) async {
        logger.info("passkey registration refused", metadata: ["user": "\(userID)", "reason": "\(reason)"])
        await audit.record(.passkeyRegistered, outcome: "rejected", userID: userID, details: ["reason": reason])
    }

    /// The failed check, for the audit trail (clients see one generic refusal).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? WebAuthnError else { return "malformed" }
        if let format = error.attestationFormat { return "unsupportedAttestationFormat:\(format.prefix(16))" }
        return error.code.description
    }

    static func describe(_ passkey: PasskeyRecord) -> PasskeyResponse {
        PasskeyResponse(
            passkeyId: passkey.id, name: passkey.name, status: passkey.status, backupEligible: passkey.backupEligible,
            backedUp: passkey.backedUp, attestationType: passkey.attestationType, createdAt: passkey.createdAt,
            lastUsedAt: passkey.lastUsedAt)
    }
}
