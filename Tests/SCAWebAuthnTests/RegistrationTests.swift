import Crypto
import Foundation
import SCACore
import Testing

@testable import SCAWebAuthn

/// Registration ceremonies captured from Chromium's virtual authenticator, and each check of
/// the registration procedure failing on its own.
@Suite struct RegistrationTests {
    let fixture = Fixture.shared

    @Test func acceptsNoneAttestationWithUserVerification() throws {
        let verified = try fixture.relyingParty.verifyRegistration(
            fixture.registration("registration-none-uv"),
            expectedChallenge: fixture.challenge("registration-none-uv"),
            requireUserVerification: true
        )
        #expect(verified.attestationType == .none)
        #expect(verified.attestationFormat == "none")
        #expect(verified.userVerified)
        #expect(verified.publicKey.algorithm == .es256)
        #expect(verified.credentialId == fixture.registration("registration-none-uv").credentialId)
    }

    @Test func acceptsPackedAttestationWithItsCertificate() throws {
        let verified = try fixture.relyingParty.verifyRegistration(
            fixture.registration("registration-packed-uv"),
            expectedChallenge: fixture.challenge("registration-packed-uv"),
            requireUserVerification: true
        )
        #expect(verified.attestationType == .basic)
        #expect(verified.attestationFormat == "packed")
    }

    @Test func acceptsAnEd25519Credential() throws {
        let verified = try fixture.relyingParty.verifyRegistration(
            fixture.registration("registration-none-eddsa"),
            expectedChallenge: fixture.challenge("registration-none-eddsa"),
            requireUserVerification: true
        )
        #expect(verified.publicKey.algorithm == .edDSA)
    }

    @Test func refusesAMissingUserVerificationOnlyWhenRequired() throws {
        let name = "registration-none-no-uv"
        let verified = try fixture.relyingParty.verifyRegistration(
            fixture.registration(name), expectedChallenge: fixture.challenge(name), requireUserVerification: false)
        #expect(!verified.userVerified)
        #expect(throws: WebAuthnError.userNotVerified) {
            try fixture.relyingParty.verifyRegistration(
                fixture.registration(name), expectedChallenge: fixture.challenge(name), requireUserVerification: true)
        }
    }

    @Test func refusesAnotherChallenge() {
        var other = fixture.challenge("registration-none-uv")
        other[0] ^= 1
        #expect(throws: WebAuthnError.challengeMismatch) {
            try fixture.relyingParty.verifyRegistration(
                fixture.registration("registration-none-uv"), expectedChallenge: other, requireUserVerification: true)
        }
    }

    @Test func refusesAnOriginNotConfigured() {
        let party = RelyingParty(id: fixture.rpId, name: "x", origins: ["http://localhost:1"])
        #expect(throws: WebAuthnError.originNotAllowed) {
            try party.verifyRegistration(
                fixture.registration("registration-none-uv"),
                expectedChallenge: fixture.challenge("registration-none-uv"),
                requireUserVerification: true
            )
        }
    }

    @Test func refusesACredentialScopedToAnotherRelyingParty() {
        let party = RelyingParty(id: "bank.example", name: "x", origins: [fixture.origin])
        #expect(throws: WebAuthnError.rpIdHashMismatch) {
            try party.verifyRegistration(
                fixture.registration("registration-none-uv"),
                expectedChallenge: fixture.challenge("registration-none-uv"),
                requireUserVerification: true
            )
        }
    }

    @Test func refusesAnAssertionPresentedAsARegistration() {
        // The client data of an assertion says webauthn.get.
        let assertion = fixture.assertion("assertion-uv-1")
        let registration = fixture.registration("registration-packed-uv")
        let mixed = RegistrationResponse(
            credentialId: registration.credentialId,
            clientDataJSON: assertion.clientDataJSON,
            attestationObject: registration.attestationObject
        )
        #expect(throws: WebAuthnError.wrongType) {
            try fixture.relyingParty.verifyRegistration(
                mixed, expectedChallenge: fixture.challenge("assertion-uv-1"), requireUserVerification: true)
        }
    }

    @Test func refusesACredentialIdOtherThanTheAuthenticatorStated() {
        let registration = fixture.registration("registration-none-uv")
        let swapped = RegistrationResponse(
            credentialId: Array(registration.credentialId.reversed()),
            clientDataJSON: registration.clientDataJSON,
            attestationObject: registration.attestationObject
        )
        #expect(throws: WebAuthnError.credentialIdMismatch) {
            try fixture.relyingParty.verifyRegistration(
                swapped, expectedChallenge: fixture.challenge("registration-none-uv"), requireUserVerification: true)
        }
    }

    @Test func refusesAnAlgorithmTheRelyingPartyDoesNotAccept() {
        let party = RelyingParty(id: fixture.rpId, name: "x", origins: [fixture.origin], algorithms: [.es256])
        #expect(throws: WebAuthnError.algorithmNotAllowed) {
            try party.verifyRegistration(
                fixture.registration("registration-none-eddsa"),
                expectedChallenge: fixture.challenge("registration-none-eddsa"),
                requireUserVerification: true
            )
        }
    }

    @Test func directAttestationPolicyRefusesNone() throws {
        let party = RelyingParty(id: fixture.rpId, name: "x", origins: [fixture.origin], attestation: .direct)
        #expect(throws: WebAuthnError.attestationNotAccepted) {
            try party.verifyRegistration(
                fixture.registration("registration-none-uv"),
                expectedChallenge: fixture.challenge("registration-none-uv"),
                requireUserVerification: true
            )
        }
        let packed = try party.verifyRegistration(
            fixture.registration("registration-packed-uv"),
            expectedChallenge: fixture.challenge("registration-packed-uv"),
            requireUserVerification: true
        )
        #expect(packed.attestationType == .basic)
    }

    /// The packed statement signs authenticator data and the client data hash: client data
    /// with the same challenge and origin but other bytes breaks it.
    @Test func refusesAPackedSignatureOverOtherData() throws {
        let registration = fixture.registration("registration-packed-uv")
        let original = try #require(
            try JSONSerialization.jsonObject(with: Data(registration.clientDataJSON)) as? [String: Any])
        var changed = original
        changed["extra"] = "field"
        let rewritten = try JSONSerialization.data(withJSONObject: changed, options: [.sortedKeys])
        let tampered = RegistrationResponse(
            credentialId: registration.credentialId,
            clientDataJSON: Array(rewritten),
            attestationObject: registration.attestationObject
        )
        #expect(throws: WebAuthnError.invalidSignature) {
            try fixture.relyingParty.verifyRegistration(
                tampered, expectedChallenge: fixture.challenge("registration-packed-uv"), requireUserVerification: true)
        }
    }

    @Test func refusesAnAttestationFormatItDoesNotVerify() throws {
        // The same object with its format renamed: "fido-u2f" is not verified here.
        let registration = fixture.registration("registration-none-uv")
        var bytes = registration.attestationObject
        let none = Array("\u{64}none".utf8)  // text(4) "none"
        let at = try #require(bytes.firstRange(of: none))
        bytes.replaceSubrange(at, with: [0x68] + Array("fido-u2f".utf8))
        let renamed = RegistrationResponse(
            credentialId: registration.credentialId,
            clientDataJSON: registration.clientDataJSON,
            attestationObject: bytes
        )
        #expect(throws: WebAuthnError.unsupportedAttestationFormat("fido-u2f")) {
            try fixture.relyingParty.verifyRegistration(
                renamed, expectedChallenge: fixture.challenge("registration-none-uv"), requireUserVerification: true)
        }
    }

    @Test func refusesACOSEKeyOfAnUnsupportedAlgorithm() {
        // kty EC2, alg ES384 (-35), crv P-384: well formed, not accepted.
        let es384: [UInt8] = [0xa3, 0x01, 0x02, 0x03, 0x38, 0x22, 0x20, 0x02]
        #expect(throws: WebAuthnError.algorithmNotAllowed) { try COSEKey(es384) }
    }

    @Test func refusesAnEC2KeyOffTheCurve() {
        var key: [UInt8] = [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]
        key += [UInt8](repeating: 1, count: 32) + [0x22, 0x58, 0x20] + [UInt8](repeating: 2, count: 32)
        #expect(throws: WebAuthnError.malformedPublicKey) { try COSEKey(key) }
    }

    @Test func refusesBackedUpWithoutBackupEligibility() {
        var data = [UInt8](repeating: 0, count: 37)
        data[32] = AuthenticatorFlags([.userPresent, .backedUp]).rawValue
        #expect(throws: WebAuthnError.malformedAuthenticatorData) { try AuthenticatorData(data) }
    }
}
