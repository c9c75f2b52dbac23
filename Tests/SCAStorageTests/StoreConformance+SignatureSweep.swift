import Foundation
import SCAStorage
import Testing

// Burnt signatures are forgotten by a periodic sweep, not by every burn: the sweep
// deletes exactly the expired ones, and the contract stays "a burnt hash is refused until it
// expires, then forgotten".
extension StoreConformance {
    func usedSignaturesAreSweptAfterExpiry() async throws {
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 60, now: t0))
        #expect(try await store.markSignatureUsed([2], expiresAt: t0 + 600, now: t0))
        #expect(try await store.forgetUsedSignatures(expiredBefore: t0 + 60) == 0, "not before its expiry")
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 60, now: t0 + 60) == false, "still refused at it")
        #expect(try await store.forgetUsedSignatures(expiredBefore: t0 + 61) == 1, "the expired one only")
        #expect(try await store.forgetUsedSignatures(expiredBefore: t0 + 61) == 0, "once")
        #expect(try await store.markSignatureUsed([2], expiresAt: t0 + 600, now: t0 + 61) == false, "the live one is kept")
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 120, now: t0 + 61), "forgotten: accepted again")
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 120, now: t0 + 62) == false, "and burnt again")

        // A device proof's burn is part of its challenge (v3-challenge-signatures): the sweep
        // leaves it, and it goes only with the challenge.
        try await store.createUser(makeUser())
        try await store.insertChallenge(makeChallenge())
        var burnt = makeChallenge()
        burnt.usedSignatures = [Array(repeating: 3, count: 32), Array(repeating: 4, count: 32)]
        let result = try await store.commitProof(ProofCommit(challenge: burnt, expectedVersion: 0))
        guard case .committed = result else { Issue.record("not committed: \(result)"); return }
        #expect(try await store.forgetUsedSignatures(expiredBefore: t0 + 301) == 1, "[1], not [2], nothing of the challenge")
        #expect(try await store.challenge(id: "c1")?.usedSignatures == burnt.usedSignatures)
    }

    /// The used signatures are stored as whole 32-byte hashes: any other length could not be
    /// read back, so the write is refused and nothing changes.
    func challengeSignaturesMustBeWholeHashes() async throws {
        try await store.createUser(makeUser())
        var challenge = makeChallenge()
        challenge.usedSignatures = [[1, 2, 3]]
        await #expect(throws: EncodingError.self) { try await store.insertChallenge(challenge) }
        #expect(try await store.challenge(id: "c1") == nil)
        try await store.insertChallenge(makeChallenge())
        await #expect(throws: EncodingError.self) { try await store.updateChallenge(challenge, expectedVersion: 0) }
        #expect(try await store.challenge(id: "c1") == makeChallenge())
    }
}
