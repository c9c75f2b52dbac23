import Foundation
import SCACore
import SCAStorage
import Testing

// A proof's commit that decides a consent (the hosted consent page's acceptance): the consent,
// its event and its audit entry are stored with the proof iff the consent's own
// compare-and-set wins; a lost one refuses nothing else.
extension StoreConformance {
    func proofCommitDecidesItsConsent() async throws {
        try await store.createUser(makeUser())
        try await store.setPartnerWebhook(
            PartnerWebhookRecord(clientID: "cli_a", url: "https://a.example/hook", sealedSecret: [1], createdAt: t0))
        try await store.insertChallenge(makeChallenge())
        try await store.insertChallenge(makeChallenge("c2"))
        var started = ConsentRecord(
            id: "cst_1", clientID: "cli_a", userID: "u1", operation: .settingsChange, summary: "Change your phone number",
            redirectURL: "https://shop.example/consent", createdAt: t0, expiresAt: t0 + 900)
        try await store.insertConsent(started, auditing: consentEntry("cst_1", to: "Created"))
        let movedStarted = started.move(to: .started, now: t0 + 1)
        #expect(movedStarted)
        started.challengeID = "c1"
        #expect(try await store.updateConsent(started, expectedVersion: 0))
        started.version = 1
        var accepted = started
        let movedAccepted = accepted.move(to: .accepted, now: t0 + 2)
        #expect(movedAccepted)
        accepted.sealedToken = [9, 8, 7]
        func completing(_ challengeID: String, expectedVersion: Int, event eventID: String) -> ProofCommit {
            var next = makeChallenge(challengeID)
            next.acceptedMethods = [.password, .smsOTP]
            next.state = .completed
            next.completedAt = t0 + 2
            return ProofCommit(
                challenge: next, expectedVersion: expectedVersion,
                lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: false, .success)),
                session: SessionOpening(
                    session: SessionRecord(
                        id: "s_\(challengeID)", userID: "u1", operation: .payment, challengeID: challengeID, createdAt: t0 + 2,
                        lastUsedAt: t0 + 2, clientID: "cli_a"),
                    refreshToken: nil),
                audit: [makeAuditDraft("challenge.completed", at: t0 + 2)],
                consent: ConsentChange(
                    consent: accepted, expectedVersion: 1, event: event(eventID, subject: "cst_1"),
                    audit: consentEntry("cst_1", to: "Accepted")))
        }

        // The challenge lost its compare-and-set: nothing at all, the consent included.
        #expect(try await store.commitProof(completing("c1", expectedVersion: 4, event: "evt_lost")) == .versionConflict)
        #expect(try await store.consent(id: "cst_1") == started)
        #expect(try await store.webhookDelivery(id: "evt_lost") == nil)

        // Both win: the proof's entry, then the consent's, linked; the event with them.
        guard case .committed(_, _, let entries, true) = try await store.commitProof(completing("c1", expectedVersion: 0, event: "evt_won"))
        else {
            Issue.record("the consent was not stored with the proof")
            return
        }
        #expect(entries.map(\.draft.event) == ["challenge.completed", "consent.changed"])
        #expect(entries.map(\.sequence) == [2, 3])
        #expect(AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 10)) == nil)
        var stored = accepted
        stored.version = 2
        #expect(try await store.consent(id: "cst_1") == stored)
        #expect(try await store.challenge(id: "c1")?.state == .completed)
        #expect(try await store.webhookDelivery(id: "evt_won") == event("evt_won", subject: "cst_1"))
        #expect(try await store.session(id: "s_c1")?.clientID == "cli_a", "the delegated session names its partner")

        // The consent moved meanwhile (here: by that commit): the proof still commits, alone.
        guard case .committed(_, _, let alone, false) = try await store.commitProof(completing("c2", expectedVersion: 0, event: "evt_late"))
        else {
            Issue.record("the proof did not commit without its consent")
            return
        }
        #expect(alone.map(\.draft.event) == ["challenge.completed"])
        #expect(try await store.challenge(id: "c2")?.state == .completed)
        #expect(try await store.consent(id: "cst_1") == stored)
        #expect(try await store.webhookDelivery(id: "evt_late") == nil)
        #expect(AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 10)) == nil)

        // An event for an address the client has not (its back-channel logout URI): the consent
        // is stored without it. (A PostgreSQL store takes its transaction path for this one.)
        try await store.insertChallenge(makeChallenge("c3"))
        var second = started
        second.id = "cst_2"
        second.challengeID = "c3"
        second.version = 0
        try await store.insertConsent(second, auditing: consentEntry("cst_2", to: "Started"))
        var secondAccepted = second
        let movedSecond = secondAccepted.move(to: .accepted, now: t0 + 3)
        #expect(movedSecond)
        var commit = completing("c3", expectedVersion: 0, event: "unused")
        var logout = event("lgo_1", subject: "cst_2")
        logout.kind = .backchannelLogout
        commit.consent = ConsentChange(
            consent: secondAccepted, expectedVersion: 0, event: logout, audit: consentEntry("cst_2", to: "Accepted"))
        guard case .committed(_, _, let both, true) = try await store.commitProof(commit) else {
            Issue.record("the consent was not stored with the proof")
            return
        }
        #expect(both.map(\.draft.event) == ["challenge.completed", "consent.changed"])
        #expect(try await store.consent(id: "cst_2")?.status == .accepted)
        #expect(try await store.consent(id: "cst_2")?.version == 1)
        #expect(try await store.webhookDelivery(id: "lgo_1") == nil)
        #expect(AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 20)) == nil)
    }
}
