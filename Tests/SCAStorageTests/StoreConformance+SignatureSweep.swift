import Foundation
import SCAStorage
import Testing

// Burnt signatures are forgotten by a periodic sweep, not by every burn (issue 14): the sweep
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

        // A burn inside a proof's commit is swept the same way.
        try await store.createUser(makeUser())
        try await store.insertChallenge(makeChallenge())
        let result = try await store.commitProof(
            ProofCommit(challenge: makeChallenge(), expectedVersion: 0, signature: SignatureBurn(hash: [3], expiresAt: t0 + 300, now: t0)))
        guard case .committed = result else { Issue.record("not committed: \(result)"); return }
        #expect(try await store.markSignatureUsed([3], expiresAt: t0 + 300, now: t0 + 1) == false)
        #expect(try await store.forgetUsedSignatures(expiredBefore: t0 + 301) == 2, "[1] and [3], not [2]")
        #expect(try await store.markSignatureUsed([3], expiresAt: t0 + 600, now: t0 + 301))
    }
}
