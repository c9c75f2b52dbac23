import Foundation
import SCACore
import SCAStorage
import Testing

// One proof, one write transaction: `commitProof` applies all of a proof or none.
extension StoreConformance {
    func proofPlan(reserve: Bool, _ settlement: LockoutPlan.Settlement, now: Date? = nil) -> LockoutPlan {
        LockoutPlan(reserve: reserve, settlement: settlement, policy: LockoutPolicy(maxFailedAttempts: 5), now: now ?? t0)
    }

    /// A challenge claimed, a device signature burnt, the device's success, a session and two
    /// audit entries: all stored by one commit, linked after the entries appended before.
    func proofCommitAppliesEverything() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        try await store.insertChallenge(makeChallenge())
        let before = try await store.appendAuditEntry(makeAuditDraft("challenge.created", at: t0))
        var next = makeChallenge()
        next.acceptedMethods = [.deviceKey]
        next.state = .completed
        next.completedAt = t0 + 2
        next.usedSignatures = [Array(repeating: 7, count: 32)]
        let session = makeSession()
        let result = try await store.commitProof(
            ProofCommit(
                challenge: next, expectedVersion: 0, lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .success)),
                device: .success(deviceID: "d1", now: t0 + 2),
                session: SessionOpening(session: session, refreshToken: nil),
                audit: [makeAuditDraft("proof.accepted", at: t0 + 2), makeAuditDraft("challenge.completed", at: t0 + 2)]))
        guard case .committed(let step, let device, let entries, false) = result else {
            Issue.record("not committed: \(result)")
            return
        }
        #expect(step == .applied(failure: nil, remaining: 5))
        #expect(device == nil, "a success hands no device back")
        #expect(entries.map(\.sequence) == [2, 3])
        #expect(entries.first?.prevHash == before.hash)
        #expect(AuditChainVerifier.verify(try await store.auditEntries(after: 0, limit: 10)) == nil)

        var stored = next
        stored.version = 1
        #expect(try await store.challenge(id: "c1") == stored)
        #expect(try await store.session(id: "s1") == session)
        #expect(try await store.device(id: "d1")?.lastUsedAt == t0 + 2)
        #expect(try await store.challenge(id: "c1")?.usedSignatures == [Array(repeating: 7, count: 32)], "burnt by the commit")
        #expect(try await store.user(id: "u1")?.lockout == LockoutState())
    }

    /// A lost compare-and-set or a refused reservation: nothing of the commit is applied (no
    /// counter, no burn, no device change, no session, no audit entry).
    func proofCommitAppliesNothingWhenRefused() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        try await store.insertChallenge(makeChallenge())
        #expect(try await store.updateChallenge(makeChallenge(), expectedVersion: 0))  // now at version 1
        func commit(version: Int, plan: LockoutPlan, burn: UInt8) -> ProofCommit {
            var next = makeChallenge()
            next.failedAttempts = 1
            next.usedSignatures = [Array(repeating: burn, count: 32)]
            return ProofCommit(
                challenge: next, expectedVersion: version, lockout: LockoutChange(subject: .user(id: "u1"), plan: plan),
                device: .failure(deviceID: "d1", maximumFailures: 3),
                session: SessionOpening(session: makeSession(), refreshToken: nil),
                audit: [makeAuditDraft("proof.rejected", at: t0)])
        }
        #expect(try await store.commitProof(commit(version: 0, plan: proofPlan(reserve: true, .failure), burn: 1)) == .versionConflict)

        for _ in 0..<5 { _ = try await store.reserveAttempt(userID: "u1", policy: LockoutPolicy(maxFailedAttempts: 5), now: t0) }
        #expect(try await store.commitProof(commit(version: 1, plan: proofPlan(reserve: true, .failure), burn: 3)) == .refused(.saturated))

        #expect(try await store.challenge(id: "c1")?.version == 1)
        #expect(try await store.challenge(id: "c1")?.failedAttempts == 0)
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 5, "only the five reservations made directly")
        #expect(try await store.device(id: "d1")?.failCount == 0)
        #expect(try await store.session(id: "s1") == nil)
        #expect(try await store.auditEntries(after: 0, limit: 10).isEmpty)
        #expect(try await store.challenge(id: "c1")?.usedSignatures == [], "not burnt by the lost or the refused commit")
    }

    /// Twenty wrong proofs at once for one user, each on a challenge of its own (reserve and
    /// fail in one commit): exactly the allowance is counted, the fifth starts the block, the
    /// others are refused with nothing applied, and each counted one appended its entry once.
    func parallelFailedProofsRespectTheLimit() async throws {
        try await store.createUser(makeUser())
        for index in 0..<20 { try await store.insertChallenge(makeChallenge("c\(index)")) }
        let store = self.store
        let plan = proofPlan(reserve: true, .failure)
        let counter = Counter()
        let results = try await inParallel(20) { () -> ProofCommitResult in
            let index = await counter.next()
            var next = ChallengeRecord(
                id: "c\(index)", userID: "u1", operation: .login, verdict: .immediate, requiredCategories: 2,
                methods: [.password, .totp], nonce: "nonce-c\(index)", createdAt: StoreConformance.t0,
                expiresAt: StoreConformance.t0 + 300)
            next.failedAttempts = 1
            return try await store.commitProof(
                ProofCommit(
                    challenge: next, expectedVersion: 0, lockout: LockoutChange(subject: .user(id: "u1"), plan: plan),
                    audit: [AuditEntryDraft(time: StoreConformance.t0, event: "proof.rejected", actor: "client", challengeID: "c\(index)", outcome: "rejected")]))
        }
        let committed = results.compactMap { result -> LockoutStep? in
            if case .committed(let step?, _, _, _) = result { return step }
            return nil
        }
        #expect(committed.count == 5)
        #expect(committed.filter { if case .applied(.temporarilyBlocked?, _) = $0 { true } else { false } }.count == 1)
        #expect(results.filter { $0 == .refused(.locked(until: t0 + 900)) }.count == 15)
        let lockout = try #require(try await store.user(id: "u1")?.lockout)
        #expect(lockout.lockedUntil == t0 + 900 && lockout.temporaryBlocks == 1 && lockout.failedAttempts == 0)
        let entries = try await store.auditEntries(after: 0, limit: 100)
        #expect(entries.count == 5)
        #expect(AuditChainVerifier.verify(entries) == nil)
        var failed = 0
        for index in 0..<20 { failed += try await store.challenge(id: "c\(index)")?.failedAttempts ?? 0 }
        #expect(failed == 5, "a refused proof changed no challenge")
    }

    /// Twenty proofs at once on one challenge, all from the same version: one lands, with its
    /// lockout change and audit entry once; the others change nothing.
    func parallelProofsOnOneChallengeCommitOnce() async throws {
        try await store.createUser(makeUser())
        try await store.insertChallenge(makeChallenge())
        let store = self.store
        var next = makeChallenge()
        next.state = .completed
        next.acceptedMethods = [.password, .totp]
        let commit = ProofCommit(
            challenge: next, expectedVersion: 0,
            lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .release)),
            audit: [makeAuditDraft("challenge.completed", at: t0)])
        let results = try await inParallel(20) { try await store.commitProof(commit) }
        #expect(results.filter { if case .committed = $0 { true } else { false } }.count == 1)
        #expect(results.filter { $0 == .versionConflict }.count == 19)
        #expect(try await store.auditEntries(after: 0, limit: 100).count == 1)
        #expect(try await store.challenge(id: "c1")?.version == 1)
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 0)
    }

    /// An unknown address's counters are changed by a commit as by `updateUnknownAddressLockout`;
    /// a commit with no challenge change still reads them (failures left) and appends its entry.
    func proofCommitCountsUnknownAddresses() async throws {
        let change = LockoutChange(subject: .unknownAddress(key: "k1"), plan: proofPlan(reserve: true, .failure))
        let first = try await store.commitProof(ProofCommit(challenge: nil, expectedVersion: 0, lockout: change))
        #expect(first == .committed(lockout: .applied(failure: .counted(remaining: 4), remaining: 4), device: nil, audit: [], consentStored: false))
        let read = LockoutChange(subject: .unknownAddress(key: "k1"), plan: proofPlan(reserve: false, .keep))
        let second = try await store.commitProof(
            ProofCommit(challenge: nil, expectedVersion: 0, lockout: read, audit: [makeAuditDraft("challenge.failed", at: t0)]))
        guard case .committed(.applied(nil, 4)?, nil, let entries, false) = second else {
            Issue.record("unexpected: \(second)")
            return
        }
        #expect(entries.count == 1)
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0 }.failedAttempts == 1)
    }

    /// A wrong signature counts against its device in the commit, which hands the device back.
    func proofCommitCountsDeviceFailures() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        for expected in [DeviceStatus.active, .active, .blocked] {
            let result = try await store.commitProof(
                ProofCommit(challenge: nil, expectedVersion: 0, device: .failure(deviceID: "d1", maximumFailures: 3)))
            guard case .committed(nil, let device?, [], false) = result else {
                Issue.record("unexpected: \(result)")
                return
            }
            #expect(device.status == expected)
        }
        #expect(try await store.device(id: "d1")?.failCount == 3)
    }

    /// The user's row counts its active passkeys (v3-proof-path), kept by registration,
    /// suspicion and deletion, so a challenge needs no read of the passkeys to offer one.
    func activePasskeysAreCountedOnTheUser() async throws {
        try await store.createUser(makeUser())
        #expect(try await store.user(id: "u1")?.activePasskeys == 0)
        for (id, credential) in [("pk1", UInt8(1)), ("pk2", 2)] {
            let passkey = makePasskey(id, credential: credential)
            #expect(try await store.registerPasskey(passkey, maximumPerUser: 5) == .registered(passkey))
        }
        #expect(try await store.user(id: "u1")?.activePasskeys == 2)
        #expect(try await store.user(email: "alice@example.com")?.activePasskeys == 2)
        _ = try await store.markPasskeySuspect(id: "pk1")
        #expect(try await store.user(id: "u1")?.activePasskeys == 1, "a suspect passkey is not offered")
        #expect(try await store.deletePasskey(id: "pk1"))
        #expect(try await store.user(id: "u1")?.activePasskeys == 1)
        #expect(try await store.deletePasskey(id: "pk2"))
        #expect(try await store.user(id: "u1")?.activePasskeys == 0)
        #expect(try await store.deletePasskey(id: "pk2") == false)
    }
}

extension StoreConformance {
    /// The challenge, its user and its device in one read; nil parts for what it does not name.
    func proofContextReadsChallengeUserAndDevice() async throws {
        #expect(try await store.proofContext(challengeID: "c1") == nil)
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        var named = makeChallenge()
        named.deviceID = "d1"
        try await store.insertChallenge(named)
        try await store.insertChallenge(makeChallenge("c2", userID: nil))
        let context = try #require(try await store.proofContext(challengeID: "c1"))
        #expect(context.challenge == named)
        #expect(context.user == (try await store.user(id: "u1")))
        #expect(context.device == (try await store.device(id: "d1")))
        let decoy = try #require(try await store.proofContext(challengeID: "c2"))
        #expect(decoy.user == nil && decoy.device == nil)
    }
}

// A code or TOTP step used in the proof's commit: read without a write, judged,
// and used by `commitProof` only if still unused; a lost use applies nothing of the commit.
extension StoreConformance {
    /// The code as issued, read back; used by a commit with everything else the proof changes;
    /// a second commit of the same use, a replaced code's use and an expired one's are refused
    /// with nothing applied.
    func proofCommitUsesACodeOnce() async throws {
        try await store.createUser(makeUser())
        try await store.insertChallenge(makeChallenge())
        #expect(try await store.oneTimeCode(challengeID: "c1", method: .emailOTP) == nil)
        #expect(
            try await store.issueCode(
                challengeID: "c1", method: .emailOTP, codeHash: [4, 2], now: t0, expiresAt: t0 + 300, minimumInterval: 30,
                maximumSends: 3) == .issued(sendCount: 1))
        let stored = try #require(try await store.oneTimeCode(challengeID: "c1", method: .emailOTP))
        #expect(stored == OneTimeCodeRecord(challengeID: "c1", method: .emailOTP, codeHash: [4, 2], sentAt: t0, expiresAt: t0 + 300, sendCount: 1))
        #expect(try await store.oneTimeCode(challengeID: "c1", method: .smsOTP) == nil)

        func commit(version: Int, use: FactorUse) -> ProofCommit {
            var next = makeChallenge()
            next.acceptedMethods = [.emailOTP]
            return ProofCommit(
                challenge: next, expectedVersion: version,
                lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .release)), factor: use,
                audit: [makeAuditDraft("proof.accepted", at: t0 + 1)])
        }
        let use = FactorUse.deliveredCode(challengeID: "c1", method: .emailOTP, codeHash: [4, 2], now: t0 + 1)
        guard case .committed(_, nil, let entries, false) = try await store.commitProof(commit(version: 0, use: use)) else {
            Issue.record("the first use is not committed")
            return
        }
        #expect(entries.count == 1)
        #expect(try await store.oneTimeCode(challengeID: "c1", method: .emailOTP)?.used == true)
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [4, 2], now: t0 + 2) == .alreadyUsed)

        // Used: the same use again, from the version it would be decided on, is refused.
        let refusedLockout = LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .failure))
        var again = commit(version: 1, use: use)
        again.lockout = refusedLockout
        #expect(try await store.commitProof(again) == .factorUsed)

        // Replaced by a new code (a used code holds no resend back): the old one's use is refused,
        // as is the new one's once it has expired.
        #expect(
            try await store.issueCode(
                challengeID: "c1", method: .emailOTP, codeHash: [9], now: t0 + 3, expiresAt: t0 + 10, minimumInterval: 30,
                maximumSends: 3) == .issued(sendCount: 2))
        #expect(try await store.commitProof(again) == .factorUsed)
        var expired = commit(version: 1, use: .deliveredCode(challengeID: "c1", method: .emailOTP, codeHash: [9], now: t0 + 10))
        expired.lockout = refusedLockout
        #expect(try await store.commitProof(expired) == .factorUsed)

        #expect(try await store.challenge(id: "c1")?.version == 1, "no refused commit changed the challenge")
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 0, "nor counted an attempt")
        #expect(try await store.auditEntries(after: 0, limit: 10).count == 1, "nor appended an entry")
        #expect(try await store.oneTimeCode(challengeID: "c1", method: .emailOTP)?.used == false, "nor used the expired code")
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [9], now: t0 + 9) == .consumed)
    }

    /// A TOTP step is stored by the commit only if newer than the last one accepted; the step
    /// itself or an older one again is refused with nothing applied.
    func proofCommitUsesATOTPStepOnce() async throws {
        try await store.createUser(makeUser())
        func commit(_ step: Int64) -> ProofCommit {
            ProofCommit(
                challenge: nil, expectedVersion: 0,
                lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .failure)),
                factor: .totpStep(userID: "u1", step: step), audit: [makeAuditDraft("proof.accepted", at: t0)])
        }
        guard case .committed = try await store.commitProof(commit(100)) else {
            Issue.record("a first step is not committed")
            return
        }
        #expect(try await store.user(id: "u1")?.lockout.lastTOTPStep == 100)
        #expect(try await store.commitProof(commit(100)) == .factorUsed)
        #expect(try await store.commitProof(commit(99)) == .factorUsed)
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 1, "only the committed proof's attempt")
        #expect(try await store.auditEntries(after: 0, limit: 10).count == 1)
        guard case .committed = try await store.commitProof(commit(101)) else {
            Issue.record("a newer step is not committed")
            return
        }
        #expect(try await store.user(id: "u1")?.lockout.lastTOTPStep == 101)
        #expect(try await store.acceptTOTPStep(userID: "u1", step: 101) == false, "burnt as acceptTOTPStep burns it")
    }

    /// Twenty commits at once using the same code, and twenty using the same TOTP step, each
    /// with a reserved attempt and an audit entry: one of each commits, the others apply nothing.
    func parallelProofsUseAFactorOnce() async throws {
        try await store.createUser(makeUser())
        try await store.insertChallenge(makeChallenge())
        _ = try await store.issueCode(
            challengeID: "c1", method: .smsOTP, codeHash: [1], now: t0, expiresAt: t0 + 300, minimumInterval: 30, maximumSends: 3)
        let store = self.store
        for use in [FactorUse.deliveredCode(challengeID: "c1", method: .smsOTP, codeHash: [1], now: t0), .totpStep(userID: "u1", step: 7)] {
            let commit = ProofCommit(
                challenge: nil, expectedVersion: 0,
                lockout: LockoutChange(subject: .user(id: "u1"), plan: proofPlan(reserve: true, .failure)), factor: use,
                audit: [makeAuditDraft("proof.accepted", at: t0)])
            let results = try await inParallel(20) { try await store.commitProof(commit) }
            #expect(results.filter { if case .committed = $0 { true } else { false } }.count == 1, "\(use)")
            #expect(results.filter { $0 == .factorUsed }.count == 19, "\(use)")
        }
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 2, "one attempt per winning commit")
        let entries = try await store.auditEntries(after: 0, limit: 100)
        #expect(entries.count == 2)
        #expect(AuditChainVerifier.verify(entries) == nil)
        #expect(try await store.oneTimeCode(challengeID: "c1", method: .smsOTP)?.used == true)
        #expect(try await store.user(id: "u1")?.lockout.lastTOTPStep == 7)
    }
}

/// Hands out 0, 1, 2, … to parallel tasks.
private actor Counter {
    private var value = 0

    func next() -> Int {
        defer { value += 1 }
        return value
    }
}
