/// Why a WebAuthn response is refused. Each case names the one check that failed, so the
/// audit trail can say why; the HTTP edge shows clients a single generic refusal.
public enum WebAuthnError: Error, Sendable, Equatable {
    /// CBOR that does not decode.
    case malformedCBOR(CBORError)
    /// Authenticator data too short, with bytes left over, or with inconsistent flags.
    case malformedAuthenticatorData
    /// `clientDataJSON` that is not the JSON object the ceremony defines.
    case malformedClientData
    /// A credential public key that is not a COSE key of a supported kind.
    case malformedPublicKey
    /// An attestation object without `fmt`, `attStmt` or `authData`, or a statement missing fields.
    case malformedAttestation
    /// `clientData.type` is not the ceremony's (`webauthn.create` or `webauthn.get`).
    case wrongType
    /// `clientData.challenge` is not the challenge this server issued.
    case challengeMismatch
    /// `clientData.origin` is not one of the configured origins, or the call came from a frame.
    case originNotAllowed
    /// The authenticator data is for another relying party id.
    case rpIdHashMismatch
    /// The user-presence flag is not set.
    case userNotPresent
    /// User verification was required and the flag is not set.
    case userNotVerified
    /// Registration without attested credential data.
    case missingCredential
    /// The credential id in the response differs from the one in the authenticator data, or is
    /// longer than 1023 bytes.
    case credentialIdMismatch
    /// The credential's algorithm is not one the relying party accepts.
    case algorithmNotAllowed
    /// An attestation format this relying party does not verify.
    case unsupportedAttestationFormat(String)
    /// The attestation is weaker than the configured policy demands.
    case attestationNotAccepted
    /// The attestation statement's certificate breaks the packed format's requirements.
    case invalidAttestationCertificate
    /// A signature that does not verify.
    case invalidSignature
    /// The response's user handle is not the credential owner's.
    case userHandleMismatch
    /// The backup-eligibility flag changed since registration: a different authenticator.
    case backupEligibilityChanged
    /// The signature counter did not grow: the credential may have been cloned.
    case signCountRegressed(stored: UInt32, received: UInt32)
}
