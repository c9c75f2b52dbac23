import SCACore

/// This server as a WebAuthn relying party: the checks of registration and authentication
/// ceremonies, as pure functions of what the browser sent and what the server expected.
///
/// What needs the store (a challenge used once, a credential id not registered before, the
/// stored counter) is the caller's: it hands the expected values in and stores the outcome.
package struct RelyingParty: Sendable {
    /// The relying party id: the registrable domain credentials are scoped to.
    package let id: String
    /// The name authenticators show.
    package let name: String
    /// The exact origins pages may call from (`https://bank.example`, `http://localhost:8080`).
    package let origins: Set<String>
    /// What attestation to ask for, and the least accepted.
    package let attestation: AttestationConveyance
    /// The algorithms accepted, in order of preference.
    package let algorithms: [COSEAlgorithm]

    package init(
        id: String,
        name: String,
        origins: Set<String>,
        attestation: AttestationConveyance = .none,
        algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256]
    ) {
        self.id = id
        self.name = name
        self.origins = origins
        self.attestation = attestation
        self.algorithms = algorithms
    }

    /// Verifies a registration (`navigator.credentials.create`) and returns the credential to
    /// store. The caller still refuses a credential id it has already registered.
    package func verifyRegistration(
        _ response: RegistrationResponse,
        expectedChallenge: [UInt8],
        requireUserVerification: Bool
    ) throws(WebAuthnError) -> VerifiedRegistration {
        let clientData = try CollectedClientData(response.clientDataJSON)
        try check(clientData, type: "webauthn.create", challenge: expectedChallenge)
        let object = try AttestationObject(response.attestationObject)
        let authData = object.authenticatorData
        try check(authData, requireUserVerification: requireUserVerification)
        guard let credential = authData.attestedCredential else { throw .missingCredential }
        guard credential.credentialId == response.credentialId else { throw .credentialIdMismatch }
        guard algorithms.contains(credential.publicKey.algorithm) else { throw .algorithmNotAllowed }

        let type: AttestationType
        switch object.format {
        case "none":
            guard object.statement.mapEntries?.isEmpty == true else { throw .malformedAttestation }
            type = .none
        case "packed":
            type = try PackedAttestation.verify(
                statement: object.statement,
                authenticatorData: authData,
                credential: credential,
                clientDataHash: clientData.hash
            )
        default:
            throw .unsupportedAttestationFormat(object.format)
        }
        switch (attestation, type) {
        case (.none, _), (.indirect, .self), (.indirect, .basic), (.direct, .basic): break
        default: throw .attestationNotAccepted
        }
        return VerifiedRegistration(
            credentialId: credential.credentialId,
            publicKey: credential.publicKey,
            signCount: authData.signCount,
            aaguid: credential.aaguid,
            flags: authData.flags,
            attestationType: type,
            attestationFormat: object.format
        )
    }

    /// Verifies an assertion (`navigator.credentials.get`) made with `credential`, which the
    /// caller looked up by the response's credential id.
    ///
    /// A counter that does not grow throws ``WebAuthnError/signCountRegressed(stored:received:)``
    /// after the signature checked out: the caller marks the credential suspect and audits it.
    package func verifyAssertion(
        _ response: AssertionResponse,
        expectedChallenge: [UInt8],
        credential: StoredCredential,
        requireUserVerification: Bool
    ) throws(WebAuthnError) -> VerifiedAssertion {
        guard response.credentialId == credential.credentialId else { throw .credentialIdMismatch }
        if let handle = response.userHandle, handle != credential.userHandle { throw .userHandleMismatch }
        let clientData = try CollectedClientData(response.clientDataJSON)
        try check(clientData, type: "webauthn.get", challenge: expectedChallenge)
        let authData = try AuthenticatorData(response.authenticatorData)
        try check(authData, requireUserVerification: requireUserVerification)
        // Assertions carry no new credential; a flag saying otherwise is malformed.
        guard authData.attestedCredential == nil else { throw .malformedAuthenticatorData }
        guard authData.flags.contains(.backupEligible) == credential.backupEligible else {
            throw .backupEligibilityChanged
        }
        let publicKey = try COSEKey(credential.publicKey)
        guard algorithms.contains(publicKey.algorithm) else { throw .algorithmNotAllowed }
        guard publicKey.isValidSignature(response.signature, for: authData.raw + clientData.hash) else {
            throw .invalidSignature
        }
        // Both zero: an authenticator without a counter (synced passkeys). Otherwise it must grow.
        if authData.signCount != 0 || credential.signCount != 0, authData.signCount <= credential.signCount {
            throw .signCountRegressed(stored: credential.signCount, received: authData.signCount)
        }
        return VerifiedAssertion(signCount: authData.signCount, flags: authData.flags)
    }

    private func check(_ clientData: CollectedClientData, type: String, challenge: [UInt8]) throws(WebAuthnError) {
        guard clientData.type == type else { throw .wrongType }
        guard ConstantTime.equals(clientData.challenge, challenge) else { throw .challengeMismatch }
        // Pages are never framed (frame-ancestors 'none'): a cross-origin call is an attack.
        guard origins.contains(clientData.origin), !clientData.crossOrigin, clientData.topOrigin == nil else {
            throw .originNotAllowed
        }
    }

    private func check(_ authData: AuthenticatorData, requireUserVerification: Bool) throws(WebAuthnError) {
        guard authData.isScoped(to: id) else { throw .rpIdHashMismatch }
        guard authData.flags.contains(.userPresent) else { throw .userNotPresent }
        if requireUserVerification, !authData.flags.contains(.userVerified) { throw .userNotVerified }
    }
}
