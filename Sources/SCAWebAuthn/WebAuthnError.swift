/// Why a WebAuthn response is refused. Its ``code`` names the one check that failed, so the
/// audit trail can say why; the HTTP edge shows clients a single generic refusal.
///
/// A struct rather than an enum, so that a new check is a new ``Code`` and not a new case that
/// breaks every exhaustive `switch`: compare ``code`` (`error.code == .invalidSignature`) and read
/// the properties that code fills in.
package struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The check that failed. Codes may be added; none is removed or renamed.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The check's name, as spelled in Swift: stable, it is what the audit trail records.
        package let description: String

        private init(_ name: String) {
            description = name
        }

        /// CBOR that does not decode.
        package static let malformedCBOR = Code("malformedCBOR")
        /// Authenticator data too short, with bytes left over, or with inconsistent flags.
        package static let malformedAuthenticatorData = Code("malformedAuthenticatorData")
        /// `clientDataJSON` that is not the JSON object the ceremony defines.
        package static let malformedClientData = Code("malformedClientData")
        /// A credential public key that is not a COSE key of a supported kind.
        package static let malformedPublicKey = Code("malformedPublicKey")
        /// An attestation object without `fmt`, `attStmt` or `authData`, or a statement missing fields.
        package static let malformedAttestation = Code("malformedAttestation")
        /// `clientData.type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
        package static let wrongType = Code("wrongType")
        /// `clientData.challenge` is not the challenge this server issued.
        package static let challengeMismatch = Code("challengeMismatch")
        /// `clientData.origin` is not one of the configured origins, or the call came from a frame.
        package static let originNotAllowed = Code("originNotAllowed")
        /// The authenticator data is for another relying party id.
        package static let rpIdHashMismatch = Code("rpIdHashMismatch")
        /// The user-presence flag is not set.
        package static let userNotPresent = Code("userNotPresent")
        /// User verification was required and the flag is not set.
        package static let userNotVerified = Code("userNotVerified")
        /// Registration without attested credential data.
        package static let missingCredential = Code("missingCredential")
        /// The credential id in the response differs from the one in the authenticator data, or is
        /// longer than 1023 bytes.
        package static let credentialIdMismatch = Code("credentialIdMismatch")
        /// The credential's algorithm is not one the relying party accepts.
        package static let algorithmNotAllowed = Code("algorithmNotAllowed")
        /// An attestation format this relying party does not verify.
        package static let unsupportedAttestationFormat = Code("unsupportedAttestationFormat")
        /// The attestation is weaker than the configured policy demands.
        package static let attestationNotAccepted = Code("attestationNotAccepted")
        /// The attestation statement's certificate breaks the packed format's requirements.
        package static let invalidAttestationCertificate = Code("invalidAttestationCertificate")
        /// A signature that does not verify.
        package static let invalidSignature = Code("invalidSignature")
        /// The response's user handle is not the credential owner's.
        package static let userHandleMismatch = Code("userHandleMismatch")
        /// The backup-eligibility flag changed since registration: a different authenticator.
        package static let backupEligibilityChanged = Code("backupEligibilityChanged")
        /// The signature counter did not grow: the credential may have been cloned.
        package static let signCountRegressed = Code("signCountRegressed")
    }

    /// The check that failed.
    package let code: Code
    /// Why the CBOR did not decode, for ``Code/malformedCBOR``; nil for every other code.
    package let cborError: CBORError?
    /// The attestation format (`fmt`) this relying party does not verify, for
    /// ``Code/unsupportedAttestationFormat``; nil for every other code.
    package let attestationFormat: String?
    /// The counter stored for the credential, for ``Code/signCountRegressed``; nil for every
    /// other code.
    package let storedSignCount: UInt32?
    /// The counter the authenticator sent, for ``Code/signCountRegressed``; nil for every other
    /// code.
    package let receivedSignCount: UInt32?

    private init(
        _ code: Code, cborError: CBORError? = nil, attestationFormat: String? = nil, storedSignCount: UInt32? = nil,
        receivedSignCount: UInt32? = nil
    ) {
        self.code = code
        self.cborError = cborError
        self.attestationFormat = attestationFormat
        self.storedSignCount = storedSignCount
        self.receivedSignCount = receivedSignCount
    }

    /// CBOR that does not decode.
    package static func malformedCBOR(_ error: CBORError) -> WebAuthnError {
        WebAuthnError(.malformedCBOR, cborError: error)
    }

    /// Authenticator data too short, with bytes left over, or with inconsistent flags.
    package static let malformedAuthenticatorData = WebAuthnError(.malformedAuthenticatorData)

    /// `clientDataJSON` that is not the JSON object the ceremony defines.
    package static let malformedClientData = WebAuthnError(.malformedClientData)

    /// A credential public key that is not a COSE key of a supported kind.
    package static let malformedPublicKey = WebAuthnError(.malformedPublicKey)

    /// An attestation object without `fmt`, `attStmt` or `authData`, or a statement missing fields.
    package static let malformedAttestation = WebAuthnError(.malformedAttestation)

    /// `clientData.type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
    package static let wrongType = WebAuthnError(.wrongType)

    /// `clientData.challenge` is not the challenge this server issued.
    package static let challengeMismatch = WebAuthnError(.challengeMismatch)

    /// `clientData.origin` is not one of the configured origins, or the call came from a frame.
    package static let originNotAllowed = WebAuthnError(.originNotAllowed)

    /// The authenticator data is for another relying party id.
    package static let rpIdHashMismatch = WebAuthnError(.rpIdHashMismatch)

    /// The user-presence flag is not set.
    package static let userNotPresent = WebAuthnError(.userNotPresent)

    /// User verification was required and the flag is not set.
    package static let userNotVerified = WebAuthnError(.userNotVerified)

    /// Registration without attested credential data.
    package static let missingCredential = WebAuthnError(.missingCredential)

    /// The credential id in the response differs from the one in the authenticator data, or is
    /// longer than 1023 bytes.
    package static let credentialIdMismatch = WebAuthnError(.credentialIdMismatch)

    /// The credential's algorithm is not one the relying party accepts.
    package static let algorithmNotAllowed = WebAuthnError(.algorithmNotAllowed)

    /// An attestation format this relying party does not verify.
    package static func unsupportedAttestationFormat(_ format: String) -> WebAuthnError {
        WebAuthnError(.unsupportedAttestationFormat, attestationFormat: format)
    }

    /// The attestation is weaker than the configured policy demands.
    package static let attestationNotAccepted = WebAuthnError(.attestationNotAccepted)

    /// The attestation statement's certificate breaks the packed format's requirements.
    package static let invalidAttestationCertificate = WebAuthnError(.invalidAttestationCertificate)

    /// A signature that does not verify.
    package static let invalidSignature = WebAuthnError(.invalidSignature)

    /// The response's user handle is not the credential owner's.
    package static let userHandleMismatch = WebAuthnError(.userHandleMismatch)

    /// The backup-eligibility flag changed since registration: a different authenticator.
    package static let backupEligibilityChanged = WebAuthnError(.backupEligibilityChanged)

    /// The signature counter did not grow: the credential may have been cloned.
    package static func signCountRegressed(stored: UInt32, received: UInt32) -> WebAuthnError {
        WebAuthnError(.signCountRegressed, storedSignCount: stored, receivedSignCount: received)
    }

    /// The check's name, with its facts where it has any (`signCountRegressed(stored: 4,
    /// received: 4)`): what logs show.
    package var description: String {
        if let cborError { return "\(code)(\(cborError))" }
        if let attestationFormat { return "\(code)(\(String(reflecting: attestationFormat)))" }
        if let storedSignCount, let receivedSignCount {
            return "\(code)(stored: \(storedSignCount), received: \(receivedSignCount))"
        }
        return code.description
    }
}
