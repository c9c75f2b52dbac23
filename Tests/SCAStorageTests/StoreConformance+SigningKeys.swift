import Foundation
import SCAStorage
import Testing

// Signing-key rotation (v8-signing-key-activation), checked on every backend.
extension StoreConformance {
    func signingKey(_ id: String, createdAt: Date, activatesAt: Date? = nil) -> SigningKeyRecord {
        SigningKeyRecord(keyID: id, algorithm: "ES256", sealedPrivateKey: Array(id.utf8), createdAt: createdAt, activatesAt: activatesAt)
    }

    /// A rotated key is stored ahead of its activation and listed first; a rotation is refused
    /// (and stores nothing) while the newest key has not activated by the rule's instant, or
    /// when the candidate would not activate after it; of parallel rotations one is stored.
    func signingKeysRotateOnce() async throws {
        let first = signingKey("k1", createdAt: t0)
        #expect(try await store.addSigningKeyIfNone(first) == first)
        #expect(try await store.signingKeys() == [first])
        #expect(first.activatesAt == first.createdAt)

        let next = signingKey("k2", createdAt: t0 + 100, activatesAt: t0 + 3_700)
        #expect(try await store.rotateSigningKey(to: next, if: SigningKeyRotation(newestActivatedBy: t0 + 100)) == .rotated(next))
        #expect(try await store.signingKeys() == [next, first])
        // The first key only ever starts the list.
        #expect(try await store.addSigningKeyIfNone(signingKey("k0", createdAt: t0 + 101)) == next)

        // k2 waits to activate: a command's rotation is refused until it has.
        let early = signingKey("k3", createdAt: t0 + 200, activatesAt: t0 + 3_800)
        #expect(try await store.rotateSigningKey(to: early, if: SigningKeyRotation(newestActivatedBy: t0 + 200)) == .refused(newest: next))
        // A candidate activating before the newest is refused, whatever the rule's instant.
        let backwards = signingKey("k4", createdAt: t0 + 5_000, activatesAt: t0 + 3_600)
        #expect(
            try await store.rotateSigningKey(to: backwards, if: SigningKeyRotation(newestActivatedBy: t0 + 5_000)) == .refused(newest: next))
        #expect(try await store.signingKeys() == [next, first])

        // Ten instances due at once: one key is stored, the others are refused after it.
        let store = self.store
        let t0 = self.t0
        let outcomes = try await inParallel(10) {
            try await store.rotateSigningKey(
                to: SigningKeyRecord(
                    keyID: UUID().uuidString, algorithm: "ES256", sealedPrivateKey: [9], createdAt: t0 + 6_000,
                    activatesAt: t0 + 9_600),
                if: SigningKeyRotation(newestActivatedBy: t0 + 6_000))
        }
        let rotated = outcomes.compactMap { outcome -> SigningKeyRecord? in
            guard case .rotated(let key) = outcome else { return nil }
            return key
        }
        #expect(rotated.count == 1)
        #expect(outcomes.allSatisfy { $0 == .rotated(rotated[0]) || $0 == .refused(newest: rotated[0]) })
        #expect(try await store.signingKeys() == [rotated[0], next, first])
    }
}
