import Crypto
import Foundation
import SCACore
import SCAStorage
import Testing

// Retention, the audit trail's cut and a user's erasure (v14-audit-lifecycle), checked on every
// backend.
extension StoreConformance {
    /// The keyed hash that seals personal facts in these checks (the server uses a subkey of
    /// its server key).
    static let personalMAC: @Sendable ([UInt8]) -> [UInt8] = { message in
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: [UInt8](repeating: 7, count: 32))))
    }

    func sealedDraft(_ event: String, at time: Date, userID: String? = "u1", details: [String: String] = [:]) -> AuditEntryDraft {
        AuditEntryDraft(
            time: time, event: event, actor: "client", userID: userID, clientAddress: "198.51.100.7", requestID: "req-1",
            outcome: "success", details: details
        ).sealingPersonalFacts(with: Self.personalMAC)
    }

    /// Entries leave only through a recorded cut, at an entry that still has the cut's hash,
    /// after the newest cut; appends go on from the cut, even when it took every entry.
    func auditTrailIsCutOnlyAtARecordedCut() async throws {
        var entries: [AuditEntry] = []
        for index in 0..<6 {
            entries.append(try await store.appendAuditEntry(sealedDraft("test.event", at: t0 + Double(index))))
        }
        #expect(try await store.auditCut() == nil)
        func cut(through entry: AuditEntry, hash: String? = nil) -> AuditCut {
            AuditCut(
                throughSequence: entry.sequence, hash: hash ?? entry.hash, checkpoint: "jws-\(entry.sequence)",
                archive: "audit-1-\(entry.sequence).jsonl", cutAt: t0 + 100)
        }
        // Another hash than the entry's: refused, nothing deleted.
        #expect(try await store.cutAuditTrail(cut(through: entries[2], hash: entries[1].hash)) == nil)
        #expect(try await store.auditEntries(after: 0, limit: 100).count == 6)

        #expect(try await store.cutAuditTrail(cut(through: entries[2])) == 3)
        #expect(try await store.auditCut() == cut(through: entries[2]))
        let kept = try await store.auditEntries(after: 0, limit: 100)
        #expect(kept.map(\.sequence) == [4, 5, 6])
        var verifier = AuditChainVerifier(after: 3, hash: entries[2].hash, personalMAC: Self.personalMAC)
        #expect(kept.compactMap { verifier.check($0) }.isEmpty)
        // At or before the newest cut: refused (another instance's pass came first).
        #expect(try await store.cutAuditTrail(cut(through: entries[2])) == nil)
        #expect(try await store.cutAuditTrail(cut(through: entries[1])) == nil)

        // Appends go on from the newest entry; after a cut that took every entry, from the cut.
        let seventh = try await store.appendAuditEntry(sealedDraft("test.event", at: t0 + 7))
        #expect(seventh.sequence == 7 && seventh.prevHash == entries[5].hash)
        #expect(try await store.cutAuditTrail(cut(through: seventh)) == 4)
        #expect(try await store.auditEntries(after: 0, limit: 100).isEmpty)
        let eighth = try await store.appendAuditEntry(sealedDraft("test.event", at: t0 + 8))
        #expect(eighth.sequence == 8 && eighth.prevHash == seventh.hash)
        #expect(try await store.newestAuditEntry()?.sequence == 8)
    }

    /// Eight instances' passes cut at the same entry at once: one cut lands, the others find it
    /// made.
    func parallelCutsLandOnce() async throws {
        var head: AuditEntry?
        for index in 0..<5 { head = try await store.appendAuditEntry(sealedDraft("test.event", at: t0 + Double(index))) }
        let third = try #require(try await store.auditEntries(after: 2, limit: 1).first)
        let cut = AuditCut(throughSequence: 3, hash: third.hash, checkpoint: "jws", archive: "audit-1-3.jsonl", cutAt: t0)
        let store = self.store
        let results = try await inParallel(8) { try await store.cutAuditTrail(cut) }
        #expect(results.compactMap { $0 } == [3])
        #expect(try await store.auditEntries(after: 0, limit: 10).map(\.sequence) == [4, 5])
        #expect(try await store.newestAuditEntry() == head)
    }

    /// A sealed entry reads back with its facts and its digest, and verifies; the facts are not
    /// in what the chain hashes.
    func sealedEntriesRoundTrip() async throws {
        let sealed = sealedDraft("passkey.removed", at: t0, details: ["passkey": "pk_1", "name": "Anna's phone"])
        #expect(sealed.personalDigest != nil)
        let appended = try await store.appendAuditEntry(sealed)
        let plain = try await store.appendAuditEntry(makeAuditDraft("token.issued", at: t0 + 1))
        let read = try await store.auditEntries(after: 0, limit: 10)
        #expect(read == [appended, plain])
        #expect(read[0].draft.clientAddress == "198.51.100.7" && read[0].draft.details["name"] == "Anna's phone")
        var verifier = AuditChainVerifier(personalMAC: Self.personalMAC)
        #expect(read.compactMap { verifier.check($0) }.isEmpty)
        #expect(read[0].draft.erasingPersonalFacts().personalFacts.isEmpty)
        #expect(AuditEntry(sequence: 1, draft: read[0].draft.erasingPersonalFacts(), prevHash: AuditEntry.genesisHash).hash == read[0].hash)
    }

    /// Erasure takes the user and what hangs off them in one go, keeps their payments without
    /// naming them, clears the facts of their sealed entries and leaves the chain whole.
    func userIsErased() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        try await addDevice(makeDevice("d1", userID: "u1"))
        try await addDevice(makeDevice("d2", userID: "u2"))
        _ = try await store.registerPasskey(makePasskey("pk1", userID: "u1", credential: 1), maximumPerUser: 10)
        try await store.insertChallenge(makeChallenge("c1", userID: "u1"))
        try await store.insertChallenge(makeChallenge("c2", userID: "u2"))
        try await store.createSession(
            makeSession("s1"), refreshToken: RefreshTokenRecord(tokenHash: [1], sessionID: "s1", issuedAt: t0, expiresAt: t0 + 3600))
        try await store.recordRiskPayment(makePayment("c1", user: "u1", at: t0))
        try await store.recordRiskPayment(makePayment("c2", user: "u2", at: t0))
        _ = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { $0.lowValue.add(100) }
        _ = try await store.updateRiskState(key: "user:u2", as: RiskState.self) { $0.lowValue.add(200) }
        _ = try await store.appendAuditEntry(sealedDraft("proof.accepted", at: t0))
        _ = try await store.appendAuditEntry(sealedDraft("passkey.removed", at: t0 + 1, details: ["name": "Anna's phone"]))
        _ = try await store.appendAuditEntry(makeAuditDraft("token.issued", at: t0 + 2))
        _ = try await store.appendAuditEntry(sealedDraft("proof.accepted", at: t0 + 3, userID: "u2"))

        let erasure = try #require(try await store.eraseUser(id: "u1", stateKeys: ["user:u1"]))
        #expect(erasure.auditEntriesErased == 2)
        #expect(erasure.auditEntriesUnsealed == 1)
        #expect(erasure.paymentsPseudonymised == 1)
        #expect(erasure.rowsDeleted >= 7)
        #expect(try await store.user(id: "u1") == nil)
        #expect(try await store.devices(userID: "u1").isEmpty)
        #expect(try await store.passkeys(userID: "u1").isEmpty)
        #expect(try await store.session(id: "s1") == nil)
        #expect(try await store.challenge(id: "c1") == nil)
        #expect(try await store.riskPayments(userID: "u1", since: .distantPast).isEmpty)
        #expect(try await store.riskState(key: "user:u1", as: RiskState.self) == RiskState())
        // The payment still counts in the volume the fraud rates divide by.
        let volume = try await store.riskPaymentVolume(from: t0 - 1, to: t0 + 1)
        #expect(volume[.creditTransfer] == 2_000)
        // The other user is untouched.
        #expect(try await store.user(id: "u2") != nil)
        #expect(try await store.devices(userID: "u2").count == 1)
        #expect(try await store.challenge(id: "c2") != nil)
        #expect(try await store.riskState(key: "user:u2", as: RiskState.self) != RiskState())

        let entries = try await store.auditEntries(after: 0, limit: 10)
        #expect(entries[0].draft.clientAddress == nil && entries[1].draft.details["name"] == nil)
        #expect(entries[0].draft.userID == "u1" && entries[0].draft.event == "proof.accepted")
        // Written before facts were sealed: its address is in the chain and stays.
        #expect(entries[2].draft.clientAddress == "192.0.2.1")
        #expect(entries[3].draft.clientAddress == "198.51.100.7")
        var verifier = AuditChainVerifier(personalMAC: Self.personalMAC)
        #expect(entries.compactMap { verifier.check($0) }.isEmpty)

        #expect(try await store.eraseUser(id: "u1", stateKeys: []) == nil)
    }

    /// A pass deletes what ended before its cut-offs, in batches, and keeps what is young, what
    /// is still named, what still counts and what a valid refresh token keeps alive.
    func retentionPurgesWhatEndedOnly() async throws {
        try await store.createUser(makeUser("u1"))
        for id in ["c-old1", "c-old2", "c-named"] { try await store.insertChallenge(makeChallenge(id)) }
        var young = makeChallenge("c-young")
        young.expiresAt = t0 + 10_000
        try await store.insertChallenge(young)
        // A session names c-named; s-old ended long ago; s-alive has a refresh token still valid.
        try await store.createSession(
            SessionRecord(id: "s-old", userID: "u1", operation: .login, challengeID: "c-named", createdAt: t0, lastUsedAt: t0),
            refreshToken: RefreshTokenRecord(tokenHash: [1], sessionID: "s-old", issuedAt: t0, expiresAt: t0 + 60))
        try await store.createSession(
            SessionRecord(id: "s-alive", userID: "u1", operation: .login, challengeID: "c-named", createdAt: t0, lastUsedAt: t0),
            refreshToken: RefreshTokenRecord(tokenHash: [2], sessionID: "s-alive", issuedAt: t0, expiresAt: t0 + 100_000))
        #expect(try await store.consumeToken(id: "jti-old", expiresAt: t0 + 60, now: t0))
        #expect(try await store.consumeToken(id: "jti-live", expiresAt: t0 + 100_000, now: t0))
        try await store.createActivationCode(makeActivationCode("OLD", userID: "u1"), maximumTries: 3)
        try await store.createActivationCode(makeActivationCode("NEW", userID: "u1", createdAt: t0 + 9_000), maximumTries: 3)
        let policy = LockoutPolicy()
        _ = try await store.updateUnknownAddressLockout(key: "k-rest") { $0.reserveAttempt(policy: policy, now: self.t0) }
        try await store.updateUnknownAddressLockout(key: "k-rest") { $0.releaseAttempt() }
        _ = try await store.updateUnknownAddressLockout(key: "k-counted") { $0.reserveAttempt(policy: policy, now: self.t0) }
        _ = try await store.updateUnknownAddressLockout(key: "k-counted") { $0.recordFailure(policy: policy, now: self.t0) }
        let counted = try await store.updateUnknownAddressLockout(key: "k-counted") { $0 }
        #expect(counted != LockoutState())

        let now = t0 + 5_000
        let plan = RetentionPlan(
            challengesEndedBefore: t0 + 1_000, sessionsEndedBefore: t0 + 1_000, deliveriesFinishedBefore: t0 + 1_000,
            activationCodesEndedBefore: t0 + 1_000, now: now, batchSize: 1)
        // One of each kind per pass at a batch of one.
        let first = try await store.purge(plan)
        #expect(first.challenges == 1)
        #expect(first.sessions == 0 || first.sessions == 1)
        var total = first
        for _ in 0..<5 {
            let next = try await store.purge(plan)
            total.challenges += next.challenges
            total.sessions += next.sessions
            total.refreshTokens += next.refreshTokens
            total.consumedTokens += next.consumedTokens
            total.activationCodes += next.activationCodes
            total.unknownAddresses += next.unknownAddresses
        }
        #expect(total.challenges == 2)
        #expect(total.refreshTokens == 1)
        #expect(total.sessions == 1)
        #expect(total.consumedTokens == 1)
        #expect(total.activationCodes == 1)
        #expect(total.unknownAddresses == 1)
        #expect(try await store.challenge(id: "c-old1") == nil)
        #expect(try await store.challenge(id: "c-old2") == nil)
        #expect(try await store.challenge(id: "c-named") != nil)
        #expect(try await store.challenge(id: "c-young") != nil)
        #expect(try await store.session(id: "s-old") == nil)
        #expect(try await store.session(id: "s-alive") != nil)
        #expect(try await store.isTokenConsumed(id: "jti-live", now: now))
        // A counter that still counts stays, as a user's does.
        #expect(try await store.updateUnknownAddressLockout(key: "k-counted") { $0 } == counted)
        // Nothing left to purge.
        #expect(try await store.purge(plan).total == 0)
    }
}
