import SCAWebAuthn
import Testing

/// The refusal's code is what the audit trail records: each check has its own, and its name
/// does not drift.
@Suite struct WebAuthnErrorTests {
    /// One error per check.
    static let oneOfEach: [WebAuthnError] = [
        .malformedCBOR(.truncated), .malformedAuthenticatorData, .malformedClientData, .malformedPublicKey,
        .malformedAttestation, .wrongType, .challengeMismatch, .originNotAllowed, .rpIdHashMismatch, .userNotPresent,
        .userNotVerified, .missingCredential, .credentialIdMismatch, .algorithmNotAllowed,
        .unsupportedAttestationFormat("fido-u2f"), .attestationNotAccepted, .invalidAttestationCertificate,
        .invalidSignature, .userHandleMismatch, .backupEligibilityChanged, .signCountRegressed(stored: 4, received: 4),
    ]

    @Test func everyCheckHasItsOwnCode() {
        let codes = Self.oneOfEach.map(\.code)
        #expect(codes.count == 21)
        #expect(Set(codes).count == codes.count)
        #expect(Set(codes.map(\.description)).count == codes.count, "code names are distinct too")
    }

    @Test func codesCarryTheirFacts() {
        #expect(WebAuthnError.malformedCBOR(.duplicateKey).cborError == .duplicateKey)
        #expect(WebAuthnError.unsupportedAttestationFormat("tpm").attestationFormat == "tpm")
        let regressed = WebAuthnError.signCountRegressed(stored: 7, received: 3)
        #expect(regressed.code == .signCountRegressed)
        #expect(regressed.storedSignCount == 7)
        #expect(regressed.receivedSignCount == 3)
        #expect(WebAuthnError.invalidSignature.storedSignCount == nil)
        #expect(WebAuthnError.invalidSignature.attestationFormat == nil)
        #expect(regressed != .signCountRegressed(stored: 7, received: 4))
    }

    @Test func descriptionsAreStable() {
        // The audit trail records these names: a rename would split one reason in two.
        #expect(WebAuthnError.challengeMismatch.description == "challengeMismatch")
        #expect(WebAuthnError.Code.originNotAllowed.description == "originNotAllowed")
        #expect(WebAuthnError.signCountRegressed(stored: 4, received: 4).description == "signCountRegressed(stored: 4, received: 4)")
        #expect(WebAuthnError.unsupportedAttestationFormat("tpm").description == "unsupportedAttestationFormat(\"tpm\")")
    }
}
