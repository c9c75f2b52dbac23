import Foundation
import SCACore
import SCAStorage
import Testing

// `LockoutChange.observed` is a hint: a backend may write the plan's result
// by compare-and-set on those counters, and must decide again on the stored ones when they
// differ. The outcome is the plan applied to the stored counters, whatever the hint says.
extension StoreConformance {
    func staleObservedCountersDecideOnTheStoredOnes() async throws {
        try await store.createUser(makeUser())
        try await store.insertChallenge(makeChallenge())
        let policy = LockoutPolicy(maxFailedAttempts: 5)
        for _ in 0..<2 { _ = try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) }
        var next = makeChallenge()
        next.failedAttempts = 1
        let result = try await store.commitProof(
            ProofCommit(
                challenge: next, expectedVersion: 0,
                lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .failure), observed: LockoutState()),
                audit: [makeAuditDraft("proof.rejected", at: t0)]))
        guard case .committed(let step, _, let entries, false) = result else { Issue.record("not committed: \(result)"); return }
        #expect(step == .applied(failure: .counted(remaining: 2), remaining: 2), "decided on the stored 2, not the observed 0")
        #expect(entries.map(\.draft.event) == ["proof.rejected"])
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 3)
        #expect(try await store.challenge(id: "c1")?.version == 1)

        // A right hint: applied as it is.
        let stored = try #require(try await store.user(id: "u1")).lockout
        let success = try await store.commitProof(
            ProofCommit(
                challenge: next, expectedVersion: 1,
                lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .success), observed: stored)))
        guard case .committed(let done, _, _, false) = success else { Issue.record("not committed: \(success)"); return }
        #expect(done == .applied(failure: nil, remaining: 5))
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 0)
    }
}
