import Foundation
import SCACore
import SCAStorage
import Testing

// Opening a challenge is one read and one write: `challengeContext` reads the user
// and the device a request names together, `insertChallenge(_:auditing:)` stores the challenge
// with its `challenge.created` entry or neither.
extension StoreConformance {
    /// The user by id, e-mail (any case) or login phone, and the device by id whoever owns it;
    /// nil parts for what is not named or not found.
    func challengeContextReadsUserAndDevice() async throws {
        var phoneUser = makeUser("u2", email: "33612345678@phone.invalid")
        phoneUser.loginPhone = "+33612345678"
        try await store.createUser(makeUser())
        try await store.createUser(phoneUser)
        try await addDevice(makeDevice())
        let alice = try #require(try await store.user(id: "u1"))
        let device = try #require(try await store.device(id: "d1"))

        #expect(try await store.challengeContext(user: .id("u1"), deviceID: "d1") == ChallengeContext(user: alice, device: device))
        #expect(try await store.challengeContext(user: .email("Alice@Example.com"), deviceID: nil) == ChallengeContext(user: alice, device: nil))
        let byPhone = try await store.challengeContext(user: .loginPhone("+33612345678"), deviceID: "d1")
        #expect(byPhone.user?.id == "u2")
        #expect(byPhone.device == device, "the device is read whoever owns it: the caller checks")
        #expect(try await store.challengeContext(user: .email("nobody@example.com"), deviceID: "d1") == ChallengeContext(user: nil, device: device))
        #expect(try await store.challengeContext(user: .id("u9"), deviceID: "d9") == ChallengeContext(user: nil, device: nil))
        #expect(try await store.challengeContext(user: .loginPhone("+33612345679"), deviceID: nil) == ChallengeContext(user: nil, device: nil))
        #expect(try await store.challengeContext(user: nil, deviceID: "d1") == ChallengeContext(user: nil, device: device))
    }

    /// The challenge and its entries (a payment's risk decision, then its creation) are stored
    /// together, linked in order after those appended before; a challenge whose id is taken
    /// stores nothing, not even its entries.
    func challengeInsertAuditsInTheSameWrite() async throws {
        try await store.createUser(makeUser())
        let before = try await store.appendAuditEntry(makeAuditDraft("user.created", at: t0))
        let drafts = [makeAuditDraft("risk.decision", at: t0 + 1), makeAuditDraft("challenge.created", at: t0 + 1)]
        let entries = try await store.insertChallenge(makeChallenge(), auditing: drafts)
        #expect(entries.map(\.sequence) == [2, 3])
        #expect(entries.first?.prevHash == before.hash)
        #expect(entries.map(\.draft) == drafts)
        #expect(try await store.challenge(id: "c1") == makeChallenge())
        #expect(try await store.auditEntries(after: 0, limit: 10) == [before] + entries)
        #expect(AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 10)) == nil)

        var again = makeChallenge()
        again.nonce = "another"
        await #expect(throws: StoreError.conflict("id")) {
            try await store.insertChallenge(again, auditing: [makeAuditDraft("challenge.created", at: t0 + 2)])
        }
        #expect(try await store.challenge(id: "c1") == makeChallenge())
        #expect(try await store.auditEntries(after: 0, limit: 10).count == 3, "the refused insert appended nothing")
    }

    /// Twenty challenges opened at once, among twenty plain appends: every entry once, one
    /// unbroken chain, every challenge stored.
    func parallelChallengeInsertsKeepOneChain() async throws {
        try await store.createUser(makeUser())
        let store = self.store
        let created = (0..<20).map { (makeChallenge("c\($0)"), makeAuditDraft("challenge.created", at: t0 + Double($0))) }
        let plain = (0..<20).map { makeAuditDraft("code.sent", at: t0 + Double($0)) }
        let entries = try await withThrowingTaskGroup(of: AuditEntry.self) { group in
            for (challenge, draft) in created {
                group.addTask { try #require(try await store.insertChallenge(challenge, auditing: [draft]).first) }
            }
            for draft in plain { group.addTask { try await store.appendAuditEntry(draft) } }
            var entries: [AuditEntry] = []
            for try await entry in group { entries.append(entry) }
            return entries
        }
        #expect(Set(entries.map(\.sequence)) == Set(1...40))
        let stored = try await store.auditEntries(after: 0, limit: 100)
        #expect(stored.count == 40)
        #expect(AuditChainVerifier.verify(stored) == nil)
        for (challenge, _) in created { #expect(try await store.challenge(id: challenge.id) == challenge) }
    }
}
