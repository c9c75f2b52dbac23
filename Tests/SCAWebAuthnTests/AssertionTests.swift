import Foundation
import SCACore
import Testing

@testable import SCAWebAuthn

/// Assertions captured from Chromium's virtual authenticator against the credentials it
/// registered, and each check of the authentication procedure failing on its own.
@Suite struct AssertionTests {
    let fixture = Fixture.shared

    func verify(
        _ name: String,
        with credential: StoredCredential,
        challenge: [UInt8]? = nil,
        requireUserVerification: Bool = true,
        party: RelyingParty? = nil
    ) throws -> VerifiedAssertion {
        try (party ?? fixture.relyingParty).verifyAssertion(
            fixture.assertion(name),
            expectedChallenge: challenge ?? fixture.challenge(name),
            credential: credential,
            requireUserVerification: requireUserVerification
        )
    }

    @Test func acceptsAUserVerifiedAssertionAndItsCounter() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let first = try verify("assertion-uv-1", with: stored)
        #expect(first.userVerified)
        #expect(first.signCount > stored.signCount || first.signCount == 0)
        // The second assertion, checked against the counter the first one left.
        let advanced = StoredCredential(
            credentialId: stored.credentialId, publicKey: stored.publicKey, signCount: first.signCount,
            backupEligible: stored.backupEligible, userHandle: stored.userHandle)
        let second = try verify("assertion-uv-2", with: advanced)
        #expect(second.signCount > first.signCount || second.signCount == 0)
    }

    @Test func acceptsAnEd25519Assertion() throws {
        let verified = try verify("assertion-eddsa", with: try fixture.stored("registration-none-eddsa"))
        #expect(verified.userVerified)
    }

    @Test func assertionWithoutUserVerificationCountsOnlyWhenNotRequired() throws {
        let stored = try fixture.stored("registration-none-no-uv")
        #expect(try !verify("assertion-no-uv", with: stored, requireUserVerification: false).userVerified)
        #expect(throws: WebAuthnError.userNotVerified) {
            try verify("assertion-no-uv", with: stored, requireUserVerification: true)
        }
    }

    /// A counter that does not grow means two authenticators hold the key: refused, even
    /// though the signature is genuine.
    @Test func refusesACounterThatGoesBackwards() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let second = try verify("assertion-uv-2", with: stored)
        #expect(second.signCount > 0, "the virtual authenticator keeps a counter")
        let ahead = StoredCredential(
            credentialId: stored.credentialId, publicKey: stored.publicKey, signCount: second.signCount,
            backupEligible: stored.backupEligible, userHandle: stored.userHandle)
        // assertion-uv-1 was made before assertion-uv-2: its counter is lower.
        #expect(throws: WebAuthnError.self) { try verify("assertion-uv-1", with: ahead) }
        do {
            _ = try verify("assertion-uv-1", with: ahead)
        } catch let error {
            guard let error = error as? WebAuthnError, error.code == .signCountRegressed else {
                Issue.record("expected signCountRegressed, got \(error)")
                return
            }
            #expect(error.storedSignCount == second.signCount)
        }
        // The same counter again (a replayed assertion) is refused too.
        #expect(throws: WebAuthnError.signCountRegressed(stored: second.signCount, received: second.signCount)) {
            try verify("assertion-uv-2", with: ahead)
        }
    }

    @Test func refusesAChallengeUsedBefore() throws {
        // An assertion answers one challenge: presented for the next one, it fails.
        let stored = try fixture.stored("registration-packed-uv")
        #expect(throws: WebAuthnError.challengeMismatch) {
            try verify("assertion-uv-1", with: stored, challenge: fixture.challenge("assertion-uv-2"))
        }
    }

    @Test func refusesAnUnknownCredential() throws {
        // The assertion names one credential, the server holds another.
        let other = try fixture.stored("registration-none-uv")
        #expect(throws: WebAuthnError.credentialIdMismatch) { try verify("assertion-uv-1", with: other) }
    }

    @Test func refusesASignatureByAnotherKey() throws {
        let packed = try fixture.stored("registration-packed-uv")
        let otherKey = try fixture.stored("registration-none-uv")
        let impostor = StoredCredential(
            credentialId: packed.credentialId, publicKey: otherKey.publicKey, signCount: 0,
            backupEligible: packed.backupEligible, userHandle: packed.userHandle)
        #expect(throws: WebAuthnError.invalidSignature) { try verify("assertion-uv-1", with: impostor) }
    }

    @Test func refusesASignatureOverOtherAuthenticatorData() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let assertion = fixture.assertion("assertion-uv-1")
        var data = assertion.authenticatorData
        data[36] &+= 1  // the counter's last byte
        let tampered = AssertionResponse(
            credentialId: assertion.credentialId, clientDataJSON: assertion.clientDataJSON,
            authenticatorData: data, signature: assertion.signature, userHandle: assertion.userHandle)
        #expect(throws: WebAuthnError.invalidSignature) {
            try fixture.relyingParty.verifyAssertion(
                tampered, expectedChallenge: fixture.challenge("assertion-uv-1"), credential: stored,
                requireUserVerification: true)
        }
    }

    @Test func refusesAnotherUsersHandle() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let someoneElse = StoredCredential(
            credentialId: stored.credentialId, publicKey: stored.publicKey, signCount: 0,
            backupEligible: stored.backupEligible, userHandle: [1, 2, 3])
        #expect(fixture.assertion("assertion-uv-1").userHandle != nil, "a resident credential returns its handle")
        #expect(throws: WebAuthnError.userHandleMismatch) { try verify("assertion-uv-1", with: someoneElse) }
    }

    @Test func refusesAWrongOriginAndAWrongRelyingParty() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let elsewhere = RelyingParty(id: fixture.rpId, name: "x", origins: ["https://bank.example"])
        #expect(throws: WebAuthnError.originNotAllowed) { try verify("assertion-uv-1", with: stored, party: elsewhere) }
        let otherId = RelyingParty(id: "bank.example", name: "x", origins: [fixture.origin])
        #expect(throws: WebAuthnError.rpIdHashMismatch) { try verify("assertion-uv-1", with: stored, party: otherId) }
    }

    @Test func refusesARegistrationPresentedAsAnAssertion() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let assertion = fixture.assertion("assertion-uv-1")
        let mixed = AssertionResponse(
            credentialId: assertion.credentialId,
            clientDataJSON: fixture.registration("registration-packed-uv").clientDataJSON,
            authenticatorData: assertion.authenticatorData, signature: assertion.signature,
            userHandle: assertion.userHandle)
        #expect(throws: WebAuthnError.wrongType) {
            try fixture.relyingParty.verifyAssertion(
                mixed, expectedChallenge: fixture.challenge("registration-packed-uv"), credential: stored,
                requireUserVerification: true)
        }
    }

    @Test func refusesAChangeOfBackupEligibility() throws {
        let stored = try fixture.stored("registration-packed-uv")
        let flipped = StoredCredential(
            credentialId: stored.credentialId, publicKey: stored.publicKey, signCount: 0,
            backupEligible: !stored.backupEligible, userHandle: stored.userHandle)
        #expect(throws: WebAuthnError.backupEligibilityChanged) { try verify("assertion-uv-1", with: flipped) }
    }
}
