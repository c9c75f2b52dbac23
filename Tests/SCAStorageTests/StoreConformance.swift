import Foundation
import SCACore
import SCAStorage
import Testing

/// Behaviour every `SCAStore` backend must show, written against the protocol only so that
/// another backend (PostgreSQL) runs the same checks. Each check expects an empty store.
///
/// Dates are whole or half seconds after a fixed instant: the clock is injected, and such
/// values survive any backend's date column unchanged.
struct StoreConformance {
    let store: any SCAStore

    static let t0 = Date(timeIntervalSince1970: 1_750_000_000)
    var t0: Date { Self.t0 }

    // MARK: Fixtures

    func makeUser(_ id: String = "u1", email: String = "alice@example.com", createdAt: Date = StoreConformance.t0) -> UserRecord {
        UserRecord(id: id, email: email, passwordHash: "$scrypt$hash", createdAt: createdAt)
    }

    func makeChallenge(_ id: String = "c1", userID: String? = "u1") -> ChallengeRecord {
        ChallengeRecord(
            id: id, userID: userID, operation: .login, verdict: .immediate, requiredCategories: 2,
            methods: [.password, .totp], nonce: "nonce-\(id)", createdAt: t0, expiresAt: t0 + 300
        )
    }

    func makeSession(_ id: String = "s1", lastUsedAt: Date = StoreConformance.t0) -> SessionRecord {
        SessionRecord(id: id, userID: "u1", operation: .login, challengeID: "c1", createdAt: t0, lastUsedAt: lastUsedAt)
    }

    /// Runs `count` copies of `body` at once and returns their results.
    func inParallel<T: Sendable>(
        _ count: Int, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> [T] {
        try await withThrowingTaskGroup(of: T.self) { group in
            for _ in 0..<count { group.addTask { try await body() } }
            var results: [T] = []
            for try await result in group { results.append(result) }
            return results
        }
    }

    // MARK: Users

    func userRoundTrip() async throws {
        #expect(try await store.user(id: "u1") == nil)
        #expect(try await store.users().isEmpty)

        let alice = UserRecord(
            id: "u1", email: "Alice@Example.COM", phone: "+4915112345678", passwordHash: "$scrypt$p",
            pinHash: "$scrypt$pin", sealedTOTPSeed: [0, 1, 2, 255], emailOTPEnabled: true, roles: ["admin", "user"],
            createdAt: t0 + 0.5,
            lockout: LockoutState(failedAttempts: 2, temporaryBlocks: 1, lockedUntil: t0 + 60.25, lastTOTPStep: 42)
        )
        try await store.createUser(alice)
        try await store.createUser(makeUser("u0", email: "bob@example.com", createdAt: t0))

        var expected = alice
        expected.email = "alice@example.com"
        #expect(try await store.user(id: "u1") == expected)
        #expect(try await store.user(email: "ALICE@example.com") == expected)
        #expect(try await store.user(email: "nobody@example.com") == nil)
        #expect(try await store.users().map(\.id) == ["u0", "u1"])
    }

    func duplicateUserConflicts() async throws {
        try await store.createUser(makeUser("u1", email: "alice@example.com"))
        await #expect(throws: StoreError.conflict("email")) {
            try await store.createUser(makeUser("u2", email: "ALICE@Example.com"))
        }
        await #expect(throws: StoreError.conflict("id")) {
            try await store.createUser(makeUser("u1", email: "other@example.com"))
        }
        #expect(try await store.users().count == 1)
    }

    func updateUser() async throws {
        try await store.createUser(makeUser("u1", email: "alice@example.com"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))

        let updated = try await store.updateUser(
            id: "u1",
            UserUpdate(email: "Alice.New@Example.com", phone: "+33600000000", sealedTOTPSeed: [9, 9], emailOTPEnabled: true)
        )
        #expect(updated.emailOTPEnabled)
        #expect(updated.email == "alice.new@example.com")
        #expect(updated.phone == "+33600000000")
        #expect(updated.sealedTOTPSeed == [9, 9])
        #expect(updated.passwordHash == "$scrypt$hash", "nil fields are left alone")
        #expect(try await store.user(id: "u1") == updated)

        // The user's own e-mail in another case is not a conflict.
        try await store.updateUser(id: "u1", UserUpdate(email: "ALICE.NEW@example.com"))
        await #expect(throws: StoreError.conflict("email")) {
            try await store.updateUser(id: "u1", UserUpdate(email: "Bob@example.com"))
        }
        await #expect(throws: StoreError.notFound) {
            try await store.updateUser(id: "nobody", UserUpdate(phone: "+1"))
        }
        #expect(try await store.user(id: "u1")?.email == "alice.new@example.com")
    }

    // MARK: Lockout

    /// Five reservations, a block of 15 minutes that lifts on time, blocks of 30 and 60
    /// minutes, and a permanent lock at the fourth block.
    func lockoutSequence() async throws {
        let policy = LockoutPolicy(maxFailedAttempts: 5, firstBlockDuration: 900, maxTemporaryBlocks: 3)
        try await store.createUser(makeUser())

        var now = t0
        for block in 1...3 {
            for remaining in stride(from: 4, through: 0, by: -1) {
                #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: now) == .granted(remaining: remaining))
            }
            #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: now) == .saturated)

            let until = now + policy.blockDuration(forBlock: block)
            #expect(try await store.recordFailure(userID: "u1", policy: policy, now: now) == .temporarilyBlocked(until: until, block: block))
            // Failures of attempts reserved before the block report the running block.
            #expect(try await store.recordFailure(userID: "u1", policy: policy, now: now + 1) == .temporarilyBlocked(until: until, block: block))
            #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: until - 1) == .locked(until: until))

            let lockout = try #require(try await store.user(id: "u1")).lockout
            #expect(lockout.temporaryBlocks == block)
            #expect(lockout.failedAttempts == 0)
            #expect(lockout.lockedUntil == until)
            now = until
        }
        #expect(now == t0 + 900 + 1800 + 3600)

        // The block has run out: attempts are granted again, and the next block is permanent.
        for remaining in stride(from: 4, through: 0, by: -1) {
            #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: now) == .granted(remaining: remaining))
        }
        #expect(try await store.user(id: "u1")?.lockout.lockedUntil == nil)
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: now) == .permanentlyBlocked)
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: now) == .permanentlyBlocked)
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: now + 86_400 * 365) == .locked(until: nil))
        let lockout = try #require(try await store.user(id: "u1")).lockout
        #expect(lockout.permanentlyLocked)
        #expect(lockout.lockedUntil == nil)

        // A success reserved before the lock does not lift it.
        try await store.recordSuccess(userID: "u1")
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: now) == .locked(until: nil))

        #expect(try await store.unblockUser(id: "u1"))
        #expect(try await store.user(id: "u1")?.lockout == LockoutState())
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: now) == .granted(remaining: 4))
        #expect(try await store.unblockUser(id: "nobody") == false)
    }

    func failuresCountDown() async throws {
        let policy = LockoutPolicy()
        try await store.createUser(makeUser())
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) == .granted(remaining: 4))
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: t0) == .counted(remaining: 4))
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) == .granted(remaining: 3))
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: t0) == .counted(remaining: 3))
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 2)
    }

    func successResetsCounters() async throws {
        let policy = LockoutPolicy()
        try await store.createUser(makeUser())
        for _ in 0..<5 { _ = try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) }
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: t0) == .temporarilyBlocked(until: t0 + 900, block: 1))

        let later = t0 + 900
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: later) == .granted(remaining: 4))
        try await store.recordSuccess(userID: "u1")
        let lockout = try #require(try await store.user(id: "u1")).lockout
        #expect(lockout.failedAttempts == 0)
        #expect(lockout.temporaryBlocks == 0)
        #expect(lockout.lockedUntil == nil)

        // Blocks count again from the first.
        for _ in 0..<5 { _ = try await store.reserveAttempt(userID: "u1", policy: policy, now: later) }
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: later) == .temporarilyBlocked(until: later + 900, block: 1))
    }

    /// A right answer to one element of an unfinished authentication gives its attempt back
    /// and no more: earlier failures stay counted.
    func releaseGivesOneAttemptBack() async throws {
        let policy = LockoutPolicy()
        try await store.createUser(makeUser())
        for _ in 0..<3 { _ = try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) }
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: t0) == .counted(remaining: 2))
        try await store.releaseAttempt(userID: "u1")
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 2)

        for _ in 0..<3 { _ = try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) }
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) == .saturated)
        try await store.releaseAttempt(userID: "u1")
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) == .granted(remaining: 0))

        for _ in 0..<7 { try await store.releaseAttempt(userID: "u1") }
        let lockout = try #require(try await store.user(id: "u1")).lockout
        #expect(lockout.failedAttempts == 0, "never below zero")
    }

    func releaseLeavesBlocksAlone() async throws {
        let policy = LockoutPolicy()
        try await store.createUser(makeUser())
        for _ in 0..<5 { _ = try await store.reserveAttempt(userID: "u1", policy: policy, now: t0) }
        #expect(try await store.recordFailure(userID: "u1", policy: policy, now: t0) == .temporarilyBlocked(until: t0 + 900, block: 1))
        // An attempt of the same burst that turned out right.
        try await store.releaseAttempt(userID: "u1")
        #expect(try await store.reserveAttempt(userID: "u1", policy: policy, now: t0 + 1) == .locked(until: t0 + 900))
        let lockout = try #require(try await store.user(id: "u1")).lockout
        #expect(lockout.failedAttempts == 0)
        #expect(lockout.temporaryBlocks == 1)
    }

    func lockoutOfUnknownUserThrows() async throws {
        await #expect(throws: StoreError.notFound) {
            try await store.reserveAttempt(userID: "nobody", policy: LockoutPolicy(), now: t0)
        }
        await #expect(throws: StoreError.notFound) {
            try await store.recordFailure(userID: "nobody", policy: LockoutPolicy(), now: t0)
        }
        await #expect(throws: StoreError.notFound) {
            try await store.releaseAttempt(userID: "nobody")
        }
        await #expect(throws: StoreError.notFound) {
            try await store.recordSuccess(userID: "nobody")
        }
        await #expect(throws: StoreError.notFound) {
            try await store.acceptTOTPStep(userID: "nobody", step: 1)
        }
    }

    func parallelReservationsGrantTheAllowanceOnce() async throws {
        let policy = LockoutPolicy()
        try await store.createUser(makeUser())
        let store = self.store
        let results = try await inParallel(50) {
            try await store.reserveAttempt(userID: "u1", policy: policy, now: Self.t0)
        }
        let granted = results.compactMap { result -> Int? in
            if case .granted(let remaining) = result { remaining } else { nil }
        }
        #expect(granted.sorted() == [0, 1, 2, 3, 4])
        #expect(results.filter { $0 == .saturated }.count == 45)
        #expect(try await store.user(id: "u1")?.lockout.failedAttempts == 5)
    }

    // MARK: Unknown addresses (v2-unknown-address-lockout)

    func unknownAddressesLockLikeUsers() async throws {
        let policy = LockoutPolicy()
        let now = t0
        // A read of an address never seen changes nothing.
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0 } == LockoutState())
        for expected in stride(from: 4, through: 0, by: -1) {
            #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0.reserveAttempt(policy: policy, now: now) }
                == .granted(remaining: expected))
        }
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0.reserveAttempt(policy: policy, now: now) } == .saturated)
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0.recordFailure(policy: policy, now: now) }
            == .temporarilyBlocked(until: now + 900, block: 1))
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0.reserveAttempt(policy: policy, now: now + 899) }
            == .locked(until: now + 900))
        // Another address has its own counters; a release never goes below zero.
        try await store.updateUnknownAddressLockout(key: "k2") { $0.releaseAttempt() }
        #expect(try await store.updateUnknownAddressLockout(key: "k2") { $0 } == LockoutState())
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0 }
            == LockoutState(failedAttempts: 0, temporaryBlocks: 1, lockedUntil: now + 900))
        // Lifted when the block has run out, the next block longer.
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0.reserveAttempt(policy: policy, now: now + 900) }
            == .granted(remaining: 4))
    }

    // v3-unknown-address-columns: the state is stored whole and read back by the user's decoder.
    func unknownAddressStateRoundTripsWhole() async throws {
        let state = LockoutState(
            failedAttempts: 3, temporaryBlocks: 2, lockedUntil: t0 + 1_800, permanentlyLocked: true, lastTOTPStep: 42)
        try await store.updateUnknownAddressLockout(key: "k1") { $0 = state }
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0 } == state)
    }

    func parallelUnknownAddressReservationsGrantTheAllowanceOnce() async throws {
        let policy = LockoutPolicy()
        let store = self.store
        let results = try await inParallel(30) {
            try await store.updateUnknownAddressLockout(key: "k1") { $0.reserveAttempt(policy: policy, now: Self.t0) }
        }
        #expect(results.filter { if case .granted = $0 { true } else { false } }.count == 5)
        #expect(try await store.updateUnknownAddressLockout(key: "k1") { $0.failedAttempts } == 5)
    }

    // MARK: TOTP

    func totpStepsBurnOnce() async throws {
        try await store.createUser(makeUser())
        #expect(try await store.acceptTOTPStep(userID: "u1", step: 100))
        #expect(try await store.acceptTOTPStep(userID: "u1", step: 100) == false)
        #expect(try await store.acceptTOTPStep(userID: "u1", step: 99) == false)
        #expect(try await store.acceptTOTPStep(userID: "u1", step: 101))

        let store = self.store
        let results = try await inParallel(20) {
            try await store.acceptTOTPStep(userID: "u1", step: 200)
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(try await store.acceptTOTPStep(userID: "u1", step: 150) == false)
        #expect(try await store.user(id: "u1")?.lockout.lastTOTPStep == 200)
    }

    // MARK: Challenges

    func challengeRoundTrip() async throws {
        #expect(try await store.challenge(id: "c1") == nil)
        let transaction = Transaction(
            amount: "125.00", currency: "EUR", payee: .init(name: "Café Müller", iban: "DE89370400440532013000"),
            reference: "INV/2025/1"
        )
        let payment = ChallengeRecord(
            id: "c1", userID: "u1", operation: .payment, verdict: .deferred, requiredCategories: 2,
            methods: [.pin, .deviceKey, .smsOTP], nonce: "abc_-123", transaction: transaction,
            transactionDigest: "digest", deviceID: "d1", state: .completed, acceptedMethods: [.deviceKey],
            rejectedMethods: [.pin], failedAttempts: 2, createdAt: t0 + 0.5, expiresAt: t0 + 300.25, completedAt: t0 + 10, version: 3,
            pendingMethod: .smsOTP
        )
        try await store.insertChallenge(payment)
        #expect(try await store.challenge(id: "c1") == payment)

        // A decoy: no owner, no transaction, the key of its address's counters.
        var decoy = makeChallenge("c2", userID: nil)
        decoy.decoy = DecoySubject(subjectKey: "keyed-hash-of-address", emailMask: "g****@example.com")
        try await store.insertChallenge(decoy)
        #expect(try await store.challenge(id: "c2") == decoy)

        // A partner's: the delegation is read back as written, and an update keeps it.
        var delegated = makeChallenge("c3")
        delegated.delegation = Delegation(
            clientID: "cli_a", clientName: "Shop", grant: .consent(id: "cst_1"), summary: "add Mallory Ltd as a trusted beneficiary")
        try await store.insertChallenge(delegated)
        #expect(try await store.challenge(id: "c3") == delegated)
        var moved = delegated
        moved.failedAttempts = 1
        #expect(try await store.updateChallenge(moved, expectedVersion: delegated.version))
        #expect(try await store.challenge(id: "c3")?.delegation == delegated.delegation)

        await #expect(throws: StoreError.conflict("id")) {
            try await store.insertChallenge(makeChallenge("c1"))
        }
    }

    func challengeCompareAndSet() async throws {
        let original = makeChallenge()
        try await store.insertChallenge(original)

        var completed = original
        completed.state = .completed
        completed.acceptedMethods = [.password, .totp]
        completed.rejectedMethods = [.pin]
        completed.failedAttempts = 3
        completed.completedAt = t0 + 20
        completed.deviceID = "d9"
        completed.pendingMethod = .totp
        completed.decoy = DecoySubject(subjectKey: "k1", emailMask: "k****@example.com")
        #expect(try await store.updateChallenge(completed, expectedVersion: 0))

        var expected = completed
        expected.version = 1
        #expect(try await store.challenge(id: "c1") == expected)

        var late = original
        late.state = .failed
        #expect(try await store.updateChallenge(late, expectedVersion: 0) == false)
        #expect(try await store.challenge(id: "c1") == expected)
        #expect(try await store.updateChallenge(makeChallenge("missing"), expectedVersion: 0) == false)
    }

    func parallelChallengeUpdatesLandOnce() async throws {
        let original = makeChallenge()
        try await store.insertChallenge(original)
        let store = self.store
        var completed = original
        completed.state = .completed
        let update = completed
        let results = try await inParallel(20) {
            try await store.updateChallenge(update, expectedVersion: 0)
        }
        #expect(results.filter { $0 }.count == 1)
        #expect(try await store.challenge(id: "c1")?.version == 1)
    }

    // MARK: One-time codes

    func codeIssuingRespectsIntervalAndLimit() async throws {
        try await store.insertChallenge(makeChallenge())
        func issue(_ hash: UInt8, at now: Date) async throws -> CodeIssueOutcome {
            try await store.issueCode(
                challengeID: "c1", method: .smsOTP, codeHash: [hash], now: now, expiresAt: now + 300,
                minimumInterval: 30, maximumSends: 3
            )
        }
        #expect(try await issue(1, at: t0) == .issued(sendCount: 1))
        #expect(try await issue(2, at: t0) == .tooSoon(retryAfter: 30))
        #expect(try await issue(2, at: t0 + 10.5) == .tooSoon(retryAfter: 20))
        #expect(try await issue(2, at: t0 + 29.9) == .tooSoon(retryAfter: 1))
        #expect(try await issue(2, at: t0 + 30) == .issued(sendCount: 2))

        // The new code replaced the old one.
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [1], now: t0 + 31) == .rejected)
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [2], now: t0 + 31) == .consumed)

        // A new code after a used one can be used again.
        #expect(try await issue(3, at: t0 + 60) == .issued(sendCount: 3))
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [3], now: t0 + 61) == .consumed)
        #expect(try await issue(4, at: t0 + 90) == .limitReached)

        // Each method has its own count.
        let email = try await store.issueCode(
            challengeID: "c1", method: .emailOTP, codeHash: [5], now: t0 + 90, expiresAt: t0 + 390,
            minimumInterval: 30, maximumSends: 3
        )
        #expect(email == .issued(sendCount: 1))
    }

    func usedCodeIsReplacedAtOnce() async throws {
        try await store.insertChallenge(makeChallenge())
        func issue(_ hash: UInt8, at now: Date) async throws -> CodeIssueOutcome {
            try await store.issueCode(
                challengeID: "c1", method: .smsOTP, codeHash: [hash], now: now, expiresAt: now + 300,
                minimumInterval: 30, maximumSends: 2
            )
        }
        #expect(try await issue(1, at: t0) == .issued(sendCount: 1))
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [1], now: t0 + 1) == .consumed)
        // The code is gone (a failed deferred round, say): its successor need not wait 30 s.
        #expect(try await issue(2, at: t0 + 2) == .issued(sendCount: 2))
        // The unused successor does hold the next one back, and the cap still holds.
        #expect(try await issue(3, at: t0 + 3) == .tooSoon(retryAfter: 29))
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [2], now: t0 + 4) == .consumed)
        #expect(try await issue(3, at: t0 + 5) == .limitReached)
    }

    func codesAreConsumedOnce() async throws {
        try await store.insertChallenge(makeChallenge())
        _ = try await store.issueCode(
            challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0, expiresAt: t0 + 300,
            minimumInterval: 30, maximumSends: 3
        )
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 4], now: t0) == .rejected)
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [1, 2, 3], now: t0) == .rejected)
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0 + 300) == .rejected, "expired")
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0 + 299.5) == .consumed)
        // The right code again: refused, and told apart from a wrong one (not a guess).
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0 + 299.5) == .alreadyUsed)
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 4], now: t0 + 299.5) == .rejected)
        #expect(try await store.consumeCode(challengeID: "missing", method: .emailOTP, codeHash: [1, 2, 3], now: t0) == .rejected)
    }

    func parallelCodeConsumptionSucceedsOnce() async throws {
        try await store.insertChallenge(makeChallenge())
        _ = try await store.issueCode(
            challengeID: "c1", method: .smsOTP, codeHash: [7], now: t0, expiresAt: t0 + 300,
            minimumInterval: 30, maximumSends: 3
        )
        let store = self.store
        let results = try await inParallel(20) {
            try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [7], now: Self.t0 + 1)
        }
        #expect(results.filter { $0 == .consumed }.count == 1)
        #expect(results.filter { $0 == .alreadyUsed }.count == 19)
    }

    // MARK: Sessions

    func sessionUseAndIdleTimeout() async throws {
        #expect(try await store.useSession(id: "s1", now: t0, idleTimeout: 300) == .notFound)
        let session = makeSession()
        try await store.createSession(session, refreshToken: nil)
        #expect(try await store.session(id: "s1") == session)

        var touched = session
        touched.lastUsedAt = t0 + 300
        #expect(try await store.useSession(id: "s1", now: t0 + 300, idleTimeout: 300) == .active(touched), "exactly the timeout is not idle")
        #expect(try await store.session(id: "s1") == touched)

        #expect(try await store.useSession(id: "s1", now: t0 + 600.5, idleTimeout: 300) == .idle)
        #expect(try await store.session(id: "s1")?.revokedAt == t0 + 600.5)
        #expect(try await store.useSession(id: "s1", now: t0 + 601, idleTimeout: 300) == .revoked)
    }

    func revokedSessionStaysRevoked() async throws {
        try await store.createSession(makeSession(), refreshToken: nil)
        try await store.revokeSession(id: "s1", now: t0 + 5)
        try await store.revokeSession(id: "s1", now: t0 + 9)
        try await store.revokeSession(id: "unknown", now: t0 + 9)
        #expect(try await store.session(id: "s1")?.revokedAt == t0 + 5, "the first revocation counts")
        #expect(try await store.useSession(id: "s1", now: t0 + 6, idleTimeout: 300) == .revoked)
        await #expect(throws: StoreError.self) {
            try await store.createSession(makeSession(), refreshToken: nil)
        }
    }

    func refreshRotationAndReuse() async throws {
        let first: [UInt8] = [1, 1, 1]
        let second: [UInt8] = [2, 2, 2]
        let third: [UInt8] = [3, 3, 3]
        try await store.createSession(
            makeSession(),
            refreshToken: RefreshTokenRecord(tokenHash: first, sessionID: "s1", issuedAt: t0, expiresAt: t0 + 3600)
        )
        #expect(try await store.sessionID(forRefreshTokenHash: first) == "s1")
        #expect(try await store.sessionID(forRefreshTokenHash: [9]) == nil)

        let rotation = try await store.rotateRefreshToken(
            presentedHash: first, replacementHash: second, replacementExpiresAt: t0 + 3700, now: t0 + 100,
            idleTimeout: 300
        )
        #expect(rotation == .rotated(makeSession(lastUsedAt: t0 + 100)))
        #expect(try await store.sessionID(forRefreshTokenHash: second) == "s1")
        #expect(try await store.sessionID(forRefreshTokenHash: first) == "s1", "used tokens are kept to detect reuse")

        #expect(
            try await store.rotateRefreshToken(
                presentedHash: [9], replacementHash: [8], replacementExpiresAt: t0 + 3700, now: t0 + 110, idleTimeout: 300
            ) == .unknown
        )

        // The first token again: someone copied it. The whole family ends.
        let reuse = try await store.rotateRefreshToken(
            presentedHash: first, replacementHash: third, replacementExpiresAt: t0 + 3800, now: t0 + 120,
            idleTimeout: 300
        )
        #expect(reuse == .reuseDetected(sessionID: "s1"))
        #expect(try await store.session(id: "s1")?.revokedAt == t0 + 120)
        #expect(try await store.sessionID(forRefreshTokenHash: third) == nil, "no successor for a reused token")

        // The current token of a revoked family is worthless too.
        #expect(
            try await store.rotateRefreshToken(
                presentedHash: second, replacementHash: third, replacementExpiresAt: t0 + 3800, now: t0 + 130,
                idleTimeout: 300
            ) == .sessionEnded
        )
    }

    func parallelRotationsSucceedOnce() async throws {
        try await store.createSession(
            makeSession(),
            refreshToken: RefreshTokenRecord(tokenHash: [1], sessionID: "s1", issuedAt: t0, expiresAt: t0 + 3600)
        )
        let store = self.store
        let results = try await withThrowingTaskGroup(of: RefreshRotation.self) { group in
            for index in 0..<10 {
                group.addTask {
                    try await store.rotateRefreshToken(
                        presentedHash: [1], replacementHash: [2, UInt8(index)], replacementExpiresAt: Self.t0 + 3600,
                        now: Self.t0 + 1, idleTimeout: 300
                    )
                }
            }
            var results: [RefreshRotation] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.filter { if case .rotated = $0 { true } else { false } }.count == 1)
        #expect(results.filter { $0 == .reuseDetected(sessionID: "s1") }.count == 9)
    }

    /// A refresh token kept (no successor, for a key-bound session) is used again and again,
    /// and still ends with its session.
    func refreshKeptWithoutSuccessor() async throws {
        let token: [UInt8] = [4, 4, 4]
        try await store.createSession(
            makeSession(), refreshToken: RefreshTokenRecord(tokenHash: token, sessionID: "s1", issuedAt: t0, expiresAt: t0 + 3600))
        for (index, at) in [t0 + 100, t0 + 200].enumerated() {
            let use = try await store.rotateRefreshToken(
                presentedHash: token, replacementHash: nil, replacementExpiresAt: t0 + 9_999, now: at, idleTimeout: 300)
            #expect(use == .rotated(makeSession(lastUsedAt: at)), "use \(index + 1)")
        }
        try await store.revokeSession(id: "s1", now: t0 + 250)
        #expect(
            try await store.rotateRefreshToken(
                presentedHash: token, replacementHash: nil, replacementExpiresAt: t0 + 9_999, now: t0 + 260, idleTimeout: 300)
                == .sessionEnded)
    }

    func refreshEndsWithExpiryOrIdleness() async throws {
        try await store.createSession(
            makeSession("s1"),
            refreshToken: RefreshTokenRecord(tokenHash: [1], sessionID: "s1", issuedAt: t0, expiresAt: t0 + 200)
        )
        try await store.createSession(
            makeSession("s2"),
            refreshToken: RefreshTokenRecord(tokenHash: [2], sessionID: "s2", issuedAt: t0, expiresAt: t0 + 3600)
        )

        // Expired token (expiry is exclusive).
        #expect(
            try await store.rotateRefreshToken(
                presentedHash: [1], replacementHash: [11], replacementExpiresAt: t0 + 3600, now: t0 + 200, idleTimeout: 300
            ) == .sessionEnded
        )
        #expect(try await store.sessionID(forRefreshTokenHash: [11]) == nil)

        // Idle session: ended, and revoked so that its access tokens die too.
        #expect(
            try await store.rotateRefreshToken(
                presentedHash: [2], replacementHash: [22], replacementExpiresAt: t0 + 3600, now: t0 + 301, idleTimeout: 300
            ) == .sessionEnded
        )
        #expect(try await store.session(id: "s2")?.revokedAt == t0 + 301)
        #expect(try await store.sessionID(forRefreshTokenHash: [22]) == nil)
    }

    // MARK: Access tokens

    func tokensAreConsumedOnce() async throws {
        #expect(try await store.consumeToken(id: "jti-1", expiresAt: t0 + 60, now: t0))
        #expect(try await store.consumeToken(id: "jti-1", expiresAt: t0 + 60, now: t0 + 1) == false)
        #expect(try await store.consumeToken(id: "jti-2", expiresAt: t0 + 60, now: t0 + 1))
        // An id is remembered for as long as its token lives, whatever else is consumed meanwhile.
        #expect(try await store.consumeToken(id: "jti-3", expiresAt: t0 + 500, now: t0 + 59))
        #expect(try await store.consumeToken(id: "jti-1", expiresAt: t0 + 60, now: t0 + 59.5) == false)
        #expect(try await store.consumeToken(id: "jti-3", expiresAt: t0 + 500, now: t0 + 120) == false)
        // Consumed ids can be read without burning anything (introspection).
        #expect(try await store.isTokenConsumed(id: "jti-3", now: t0 + 120))
        #expect(try await store.isTokenConsumed(id: "jti-unused", now: t0 + 120) == false)
        #expect(try await store.isTokenConsumed(id: "jti-3", now: t0 + 501) == false)
        #expect(try await store.consumeToken(id: "jti-unused", expiresAt: t0 + 500, now: t0 + 120))

        let store = self.store
        let results = try await inParallel(20) {
            try await store.consumeToken(id: "jti-parallel", expiresAt: Self.t0 + 600, now: Self.t0 + 130)
        }
        #expect(results.filter { $0 }.count == 1)
    }

    // MARK: Signing keys

    func firstSigningKeyWins() async throws {
        #expect(try await store.signingKeys().isEmpty)
        let first = SigningKeyRecord(keyID: "k1", algorithm: "ES256", sealedPrivateKey: [1, 2, 3], createdAt: t0)
        let second = SigningKeyRecord(keyID: "k2", algorithm: "ES256", sealedPrivateKey: [4, 5, 6], createdAt: t0 + 1)
        #expect(try await store.addSigningKeyIfNone(first) == first)
        #expect(try await store.addSigningKeyIfNone(second) == first)
        #expect(try await store.signingKeys() == [first])

        let store = self.store
        let results = try await inParallel(10) {
            try await store.addSigningKeyIfNone(second)
        }
        #expect(results.allSatisfy { $0 == first })
    }

    // MARK: Health

    func healthCheckPasses() async throws {
        try await store.checkHealth()
    }

    // MARK: Devices

    /// A device with keys shaped like X9.63 P-256 public keys.
    func makeDevice(
        _ id: String = "d1", userID: String = "u1", biometryKey: [UInt8]? = [4] + [UInt8](repeating: 2, count: 64),
        createdAt: Date = StoreConformance.t0
    ) -> DeviceRecord {
        DeviceRecord(
            id: id, userID: userID, name: "Phone \(id)", platform: "ios",
            possessionKey: [4] + [UInt8](repeating: 1, count: 64), biometryKey: biometryKey, createdAt: createdAt
        )
    }

    /// A code living ten minutes from `createdAt`.
    func makeActivationCode(
        _ lookupID: String = "AAAAA", hash: [UInt8] = [1, 2, 3], userID: String = "u1",
        createdAt: Date = StoreConformance.t0
    ) -> ActivationCodeRecord {
        ActivationCodeRecord(
            lookupID: lookupID, codeHash: hash, userID: userID, createdAt: createdAt, expiresAt: createdAt + 600
        )
    }

    func register(
        _ device: DeviceRecord, lookupID: String = "AAAAA", hash: [UInt8] = [1, 2, 3],
        now: Date = StoreConformance.t0 + 1, maximumTries: Int = 3, maximumDevices: Int = 5
    ) async throws -> DeviceRegistration {
        try await store.registerDevice(
            device, lookupID: lookupID, codeHash: hash, now: now, maximumTries: maximumTries,
            maximumDevices: maximumDevices
        )
    }

    /// Registers `device` through a code of its own.
    func addDevice(_ device: DeviceRecord) async throws {
        let lookupID = "L-\(device.id)"
        try await store.createActivationCode(
            makeActivationCode(lookupID, hash: [9], userID: device.userID, createdAt: device.createdAt), maximumTries: 3
        )
        let registration = try await register(
            device, lookupID: lookupID, hash: [9], now: device.createdAt, maximumDevices: 100
        )
        #expect(registration == .registered(device))
    }

    func activationCodeConflictsAndReplacement() async throws {
        try await store.createUser(makeUser())
        try await store.createActivationCode(makeActivationCode(hash: [1]), maximumTries: 3)
        // Another lookup id is another code.
        try await store.createActivationCode(makeActivationCode("BBBBB", hash: [1]), maximumTries: 3)

        // A live code keeps its lookup id up to its expiry, which is exclusive.
        await #expect(throws: StoreError.conflict("lookupID")) {
            try await store.createActivationCode(makeActivationCode(hash: [2], createdAt: t0 + 599.5), maximumTries: 3)
        }
        try await store.createActivationCode(makeActivationCode(hash: [2], createdAt: t0 + 600), maximumTries: 3)
        #expect(
            try await register(makeDevice("d1"), hash: [1], now: t0 + 601) == .codeWrong(remaining: 2),
            "the expired code was replaced"
        )
        #expect(try await register(makeDevice("d1"), hash: [2], now: t0 + 601) == .registered(makeDevice("d1")))

        // A used code is replaced.
        try await store.createActivationCode(makeActivationCode(hash: [3], createdAt: t0 + 602), maximumTries: 3)
        #expect(try await register(makeDevice("d2"), hash: [9], now: t0 + 603) == .codeWrong(remaining: 2))
        #expect(try await register(makeDevice("d2"), hash: [9], now: t0 + 603) == .codeWrong(remaining: 1))

        // Whether a code is void depends on the limit of tries in force.
        await #expect(throws: StoreError.conflict("lookupID")) {
            try await store.createActivationCode(makeActivationCode(hash: [4], createdAt: t0 + 604), maximumTries: 3)
        }
        try await store.createActivationCode(makeActivationCode(hash: [4], createdAt: t0 + 604), maximumTries: 2)
        #expect(try await register(makeDevice("d2"), hash: [4], now: t0 + 605) == .registered(makeDevice("d2")))
    }

    func deviceRegistration() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        try await store.createActivationCode(makeActivationCode(), maximumTries: 3)
        #expect(try await store.device(id: "d1") == nil)

        // The code decides the owner, not the record.
        let first = makeDevice("d1")
        #expect(try await register(makeDevice("d1", userID: "u2")) == .registered(first))
        #expect(try await store.device(id: "d1") == first)
        #expect(try await store.devices(userID: "u1") == [first])
        #expect(try await store.devices(userID: "u2").isEmpty)

        #expect(try await register(makeDevice("d2"), now: t0 + 2) == .codeInvalid, "the code is used")
        #expect(try await store.devices(userID: "u1") == [first])

        // A taken device id leaves the code unused.
        try await store.createActivationCode(makeActivationCode("BBBBB", hash: [4]), maximumTries: 3)
        await #expect(throws: StoreError.conflict("id")) {
            try await register(makeDevice("d1"), lookupID: "BBBBB", hash: [4])
        }
        let second = makeDevice("d2", biometryKey: nil, createdAt: t0 + 1)
        #expect(try await register(second, lookupID: "BBBBB", hash: [4]) == .registered(second))
        #expect(try await store.device(id: "d2") == second)
        #expect(try await store.devices(userID: "u1") == [first, second])
    }

    func wrongActivationCodeCountsTries() async throws {
        try await store.createUser(makeUser())
        try await store.createActivationCode(makeActivationCode(hash: [1, 2, 3]), maximumTries: 3)
        #expect(try await register(makeDevice(), hash: [1, 2, 4]) == .codeWrong(remaining: 2))
        #expect(try await register(makeDevice(), hash: [1, 2, 3, 4]) == .codeWrong(remaining: 1))
        #expect(try await register(makeDevice(), hash: []) == .codeWrong(remaining: 0))
        #expect(try await register(makeDevice(), hash: [1, 2, 3]) == .codeInvalid, "void after the last try")
        #expect(try await register(makeDevice(), lookupID: "ZZZZZ") == .codeInvalid, "unknown")
        #expect(try await store.device(id: "d1") == nil)
    }

    func expiredActivationCodeIsInvalid() async throws {
        try await store.createUser(makeUser())
        try await store.createActivationCode(makeActivationCode(), maximumTries: 3)
        try await store.createActivationCode(makeActivationCode("BBBBB"), maximumTries: 3)
        #expect(try await register(makeDevice(), now: t0 + 600) == .codeInvalid, "expiry is exclusive")
        #expect(try await register(makeDevice(), hash: [9], now: t0 + 600) == .codeInvalid, "no try on a dead code")
        #expect(try await register(makeDevice(), lookupID: "BBBBB", now: t0 + 599.5) == .registered(makeDevice()))
    }

    func deviceLimitExcludesRemovedDevices() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        try await addDevice(makeDevice("d1"))
        try await addDevice(makeDevice("d2", createdAt: t0 + 1))
        try await addDevice(makeDevice("d9", userID: "u2"))
        // Blocked devices count.
        try await store.setDeviceStatus(id: "d2", to: .blocked)

        try await store.createActivationCode(makeActivationCode(), maximumTries: 3)
        let third = makeDevice("d3", createdAt: t0 + 2)
        #expect(try await register(third, maximumDevices: 2) == .deviceLimitReached)
        // The code is left as it was: unused, its tries untouched.
        #expect(try await register(third, hash: [0], maximumDevices: 2) == .codeWrong(remaining: 2))
        #expect(try await register(third, maximumDevices: 2) == .deviceLimitReached)
        #expect(try await store.devices(userID: "u1").count == 2)

        try await store.setDeviceStatus(id: "d1", to: .removed)
        #expect(try await register(third, maximumDevices: 2) == .registered(third))
        #expect(try await store.devices(userID: "u1").map(\.id) == ["d1", "d2", "d3"], "removed devices are listed")

        try await store.createActivationCode(makeActivationCode("BBBBB"), maximumTries: 3)
        #expect(try await register(makeDevice("d4"), lookupID: "BBBBB", maximumDevices: 2) == .deviceLimitReached)
    }

    func devicesAreListedOldestFirst() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        try await addDevice(makeDevice("d2", createdAt: t0 + 1))
        try await addDevice(makeDevice("d1", createdAt: t0 + 1))
        try await addDevice(makeDevice("d0", createdAt: t0 + 2.5))
        try await addDevice(makeDevice("d9", createdAt: t0))
        try await addDevice(makeDevice("d5", userID: "u2", createdAt: t0))
        #expect(try await store.devices(userID: "u1").map(\.id) == ["d9", "d1", "d2", "d0"])
        #expect(try await store.devices(userID: "u2").map(\.id) == ["d5"])
        #expect(try await store.devices(userID: "nobody").isEmpty)
    }

    func parallelRegistrationsUseTheCodeOnce() async throws {
        try await store.createUser(makeUser())
        try await store.createActivationCode(makeActivationCode(), maximumTries: 3)
        let store = self.store
        let devices = (0..<20).map { makeDevice("d\($0)") }
        let results = try await withThrowingTaskGroup(of: DeviceRegistration.self) { group in
            for device in devices {
                group.addTask {
                    try await store.registerDevice(
                        device, lookupID: "AAAAA", codeHash: [1, 2, 3], now: Self.t0 + 1, maximumTries: 3,
                        maximumDevices: 5
                    )
                }
            }
            var results: [DeviceRegistration] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.filter { if case .registered = $0 { true } else { false } }.count == 1)
        #expect(results.filter { $0 == .codeInvalid }.count == 19)
        #expect(try await store.devices(userID: "u1").count == 1)
    }

    func devicesAreRenamed() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        #expect(try await store.renameDevice(id: "nobody", to: "Tablet") == nil)
        _ = try await store.recordDeviceFailure(id: "d1", maximumFailures: 5)
        var expected = try #require(try await store.device(id: "d1"))
        expected.name = "Kitchen tablet ✓"
        #expect(try await store.renameDevice(id: "d1", to: "Kitchen tablet ✓") == expected, "the name alone changes")
        #expect(try await store.device(id: "d1") == expected)
        #expect(try await store.devices(userID: "u1") == [expected])
    }

    func deviceStatusChanges() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        #expect(try await store.setDeviceStatus(id: "nobody", to: .blocked) == nil)

        _ = try await store.recordDeviceFailure(id: "d1", maximumFailures: 5)
        _ = try await store.recordDeviceFailure(id: "d1", maximumFailures: 5)
        var expected = makeDevice()
        expected.status = .blocked
        expected.failCount = 2
        #expect(try await store.setDeviceStatus(id: "d1", to: .blocked) == expected, "blocking keeps the count")
        expected.status = .active
        expected.failCount = 0
        #expect(try await store.setDeviceStatus(id: "d1", to: .active) == expected, "unblocking clears the count")
        #expect(try await store.device(id: "d1") == expected)

        _ = try await store.recordDeviceFailure(id: "d1", maximumFailures: 5)
        expected.status = .removed
        expected.failCount = 1
        #expect(try await store.setDeviceStatus(id: "d1", to: .removed) == expected)
        for status in DeviceStatus.allCases {
            #expect(try await store.setDeviceStatus(id: "d1", to: status) == expected, "removed is final")
        }
        #expect(try await store.device(id: "d1") == expected)
    }

    func failuresBlockAnActiveDevice() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice("d1"))
        try await addDevice(makeDevice("d2"))
        for count in 1...4 {
            let device = try await store.recordDeviceFailure(id: "d1", maximumFailures: 5)
            #expect(device?.failCount == count)
            #expect(device?.status == .active)
        }
        var expected = makeDevice("d1")
        expected.failCount = 5
        expected.status = .blocked
        #expect(try await store.recordDeviceFailure(id: "d1", maximumFailures: 5) == expected)
        expected.failCount = 6
        #expect(try await store.recordDeviceFailure(id: "d1", maximumFailures: 5) == expected)
        #expect(try await store.device(id: "d1") == expected)

        // A success restarts the count and does not lift the block.
        try await store.recordDeviceSuccess(id: "d1", now: t0 + 30.5)
        expected.failCount = 0
        expected.lastUsedAt = t0 + 30.5
        #expect(try await store.device(id: "d1") == expected)

        // A removed device stays removed.
        try await store.setDeviceStatus(id: "d2", to: .removed)
        for _ in 0..<5 { _ = try await store.recordDeviceFailure(id: "d2", maximumFailures: 5) }
        #expect(try await store.device(id: "d2")?.status == .removed)

        #expect(try await store.recordDeviceFailure(id: "nobody", maximumFailures: 5) == nil)
        await #expect(throws: StoreError.notFound) {
            try await store.recordDeviceSuccess(id: "nobody", now: t0)
        }
    }

    func parallelDeviceFailuresAreAllCounted() async throws {
        try await store.createUser(makeUser())
        try await addDevice(makeDevice())
        let store = self.store
        let results = try await inParallel(20) {
            try await store.recordDeviceFailure(id: "d1", maximumFailures: 5)
        }
        #expect(results.compactMap { $0?.failCount }.sorted() == Array(1...20))
        #expect(results.filter { $0?.status == .active }.count == 4)
        let device = try await store.device(id: "d1")
        #expect(device?.failCount == 20)
        #expect(device?.status == .blocked)
    }

    func signaturesAreUsedOnce() async throws {
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 300, now: t0))
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 300, now: t0 + 1) == false)
        #expect(try await store.markSignatureUsed([1, 0], expiresAt: t0 + 300, now: t0 + 1))

        let store = self.store
        let results = try await inParallel(20) {
            try await store.markSignatureUsed([2], expiresAt: Self.t0 + 300, now: Self.t0 + 2)
        }
        #expect(results.filter { $0 }.count == 1)
    }

    /// A used signature is remembered until its expiry and may be forgotten after it, when
    /// the same hash is accepted again. The caller must therefore bind each signature to
    /// something that itself expires no later (the challenge it signs) and refuse a replay on
    /// that ground before asking here.
    func usedSignaturesAreForgottenAfterExpiry() async throws {
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 60, now: t0))
        #expect(try await store.markSignatureUsed([2], expiresAt: t0 + 600, now: t0 + 30))
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 60, now: t0 + 60) == false, "up to its expiry")
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 120, now: t0 + 60.5), "forgotten after it")
        #expect(try await store.markSignatureUsed([1], expiresAt: t0 + 120, now: t0 + 61) == false)
        #expect(try await store.markSignatureUsed([2], expiresAt: t0 + 600, now: t0 + 61) == false, "others are kept")
    }

    // MARK: Audit trail

    func makeAuditDraft(_ event: String, at time: Date, userID: String? = "u1") -> AuditEntryDraft {
        AuditEntryDraft(
            time: time, event: event, actor: "client", userID: userID, challengeID: "c1",
            clientAddress: "192.0.2.1", requestID: "req-1", outcome: "success",
            details: ["method": "password", "note": "ünïcode \"quoted\""])
    }

    func auditEntriesChainAndRoundTrip() async throws {
        #expect(try await store.auditEntries(after: 0, limit: 10).isEmpty)
        let first = try await store.appendAuditEntry(makeAuditDraft("challenge.created", at: t0 + 0.123))
        let second = try await store.appendAuditEntry(makeAuditDraft("proof.accepted", at: t0 + 1, userID: nil))
        let third = try await store.appendAuditEntry(makeAuditDraft("challenge.completed", at: t0 + 2.5))
        #expect(first.sequence == 1 && second.sequence == 2 && third.sequence == 3)
        #expect(first.prevHash == AuditEntry.genesisHash)
        #expect(second.prevHash == first.hash && third.prevHash == second.hash)

        let stored = try await store.auditEntries(after: 0, limit: 10)
        #expect(stored == [first, second, third], "read back exactly as appended, hashes included")
        #expect(AuditChainVerifier.verify(stored) == nil)
        #expect(AuditEntry.milliseconds(stored[0].draft.time) == AuditEntry.milliseconds(t0) + 123, "whole milliseconds")
        #expect(stored[1].draft.userID == nil)

        #expect(try await store.auditEntries(after: 1, limit: 1) == [second], "pages by sequence")
        #expect(try await store.auditEntries(after: 0, since: t0 + 1, limit: 10) == [second, third], "since is inclusive")
        #expect(try await store.auditEntries(after: 2, since: t0 + 1, limit: 10) == [third])
    }

    // Checkpoints read the head of the chain in one query.
    func newestAuditEntryIsTheHead() async throws {
        #expect(try await store.newestAuditEntry() == nil)
        let first = try await store.appendAuditEntry(makeAuditDraft("challenge.created", at: t0))
        #expect(try await store.newestAuditEntry() == first)
        _ = try await store.appendAuditEntry(makeAuditDraft("proof.accepted", at: t0 + 1))
        let third = try await store.appendAuditEntry(makeAuditDraft("challenge.completed", at: t0 + 2))
        #expect(try await store.newestAuditEntry() == third, "by sequence, hashes included")
    }

    func parallelAuditAppendsFormOneChain() async throws {
        let store = self.store
        let t0 = self.t0
        let appended = try await inParallel(20) {
            try await store.appendAuditEntry(
                AuditEntryDraft(time: t0, event: "proof.rejected", actor: "client", outcome: "rejected"))
        }
        #expect(Set(appended.map(\.sequence)) == Set(1...20), "every append got its own number")
        let stored = try await store.auditEntries(after: 0, limit: 100)
        #expect(stored.map(\.sequence) == Array(1...20))
        #expect(AuditChainVerifier.verify(stored) == nil, "gapless and unforked")
    }
    // MARK: Rate budgets (v2-rate-limits)

    func budget(_ name: String, limit: Int, window: TimeInterval) -> RateBudget {
        RateBudget(key: "test.\(name).\(Int(window)):subject", scope: name, limit: limit, window: window)
    }

    func rateBudgetsGrantUpToTheLimitAndSlide() async throws {
        let budgets = [budget("short", limit: 3, window: 600), budget("long", limit: 10, window: 86_400)]
        for offset in [0.0, 10, 20] {
            #expect(try await store.consumeRateBudgets(budgets, now: t0 + offset) == .granted)
        }
        // The oldest of the three leaves the 10-minute window at t0 + 600.
        #expect(try await store.consumeRateBudgets(budgets, now: t0 + 30) == .refused(scopes: ["short"], retryAfter: 570))
        #expect(try await store.consumeRateBudgets(budgets, now: t0 + 599.5) == .refused(scopes: ["short"], retryAfter: 1))
        #expect(try await store.consumeRateBudgets(budgets, now: t0 + 600) == .granted)
        #expect(try await store.consumeRateBudgets(budgets, now: t0 + 601) == .refused(scopes: ["short"], retryAfter: 9))
        // Another subject has its own budget.
        let other = RateBudget(key: "test.short.600:other", scope: "short", limit: 3, window: 600)
        #expect(try await store.consumeRateBudgets([other], now: t0 + 601) == .granted)
    }

    func refusedRateBudgetsCountNothing() async throws {
        let tight = budget("tight", limit: 1, window: 60)
        let loose = budget("loose", limit: 3, window: 60)
        #expect(try await store.consumeRateBudgets([tight, loose], now: t0) == .granted)
        for _ in 0..<5 {
            #expect(try await store.consumeRateBudgets([tight, loose], now: t0 + 1) == .refused(scopes: ["tight"], retryAfter: 59))
        }
        // Had the refusals counted, `loose` would be spent; it has two uses left.
        #expect(try await store.consumeRateBudgets([loose], now: t0 + 2) == .granted)
        #expect(try await store.consumeRateBudgets([loose], now: t0 + 2) == .granted)
        #expect(try await store.consumeRateBudgets([loose], now: t0 + 2) == .refused(scopes: ["loose"], retryAfter: 58))
        // Every spent budget is named; the wait is until all of them have room.
        let slow = budget("slow", limit: 1, window: 100)
        let quick = budget("quick", limit: 1, window: 50)
        #expect(try await store.consumeRateBudgets([slow, quick], now: t0) == .granted)
        #expect(
            try await store.consumeRateBudgets([slow, quick], now: t0 + 10)
                == .refused(scopes: ["slow", "quick"], retryAfter: 90))
        // A key asked for twice in one request is counted once.
        let fresh = budget("fresh", limit: 2, window: 60)
        #expect(try await store.consumeRateBudgets([fresh, fresh], now: t0) == .granted)
        #expect(try await store.consumeRateBudgets([fresh], now: t0) == .granted)
    }

    func expiredRateUsesFreeTheBudget() async throws {
        let daily = budget("daily", limit: 2, window: 86_400)
        #expect(try await store.consumeRateBudgets([daily], now: t0) == .granted)
        #expect(try await store.consumeRateBudgets([daily], now: t0 + 3_600) == .granted)
        #expect(try await store.consumeRateBudgets([daily], now: t0 + 7_200) == .refused(scopes: ["daily"], retryAfter: 79_200))
        // A day later both uses have left the window (and are deleted on the way).
        let later = t0 + 86_400 + 3_600
        #expect(try await store.consumeRateBudgets([daily], now: later) == .granted)
        #expect(try await store.consumeRateBudgets([daily], now: later) == .granted)
        #expect(try await store.consumeRateBudgets([daily], now: later) == .refused(scopes: ["daily"], retryAfter: 86_400))
    }

    func parallelRateConsumersGetExactlyTheLimit() async throws {
        let store = self.store
        let t0 = self.t0
        let shared = budget("shared", limit: 7, window: 600)
        let global = budget("global", limit: 100, window: 60)
        let results = try await inParallel(40) {
            try await store.consumeRateBudgets([shared, global], now: t0)
        }
        #expect(results.filter { $0 == .granted }.count == 7)
        #expect(results.filter { $0 == .refused(scopes: ["shared"], retryAfter: 600) }.count == 33)
        // The refused 33 counted nothing in the global budget: 100 - 7 uses are left.
        let rest = try await inParallel(100) { try await store.consumeRateBudgets([global], now: t0) }
        #expect(rest.filter { $0 == .granted }.count == 93)
    }

    func decoySubjectRoundTrip() async throws {
        var decoy = makeChallenge("c1", userID: nil)
        decoy.decoy = DecoySubject(subjectKey: "k3y_-", emailMask: "g****@example.com")
        try await store.insertChallenge(decoy)
        #expect(try await store.challenge(id: "c1") == decoy)
        var updated = decoy
        updated.failedAttempts = 1
        #expect(try await store.updateChallenge(updated, expectedVersion: 0))
        updated.version = 1
        #expect(try await store.challenge(id: "c1") == updated)
    }

    // MARK: Admin keys (v3-admin-keys)

    func makeAdminKey(_ id: String, name: String, createdAt: Date = StoreConformance.t0) -> AdminKeyRecord {
        AdminKeyRecord(
            id: id, name: name, scopes: [.auditRead, .usersRead], keyHash: Array(repeating: 7, count: 32), createdAt: createdAt)
    }

    func adminKeysRoundTripAndConflict() async throws {
        #expect(try await store.adminKeys().isEmpty)
        let first = makeAdminKey("ak_0000000000000001", name: "support-desk", createdAt: t0 + 0.5)
        let second = makeAdminKey("ak_0000000000000002", name: "ci", createdAt: t0 + 0.5)
        try await store.createAdminKey(first)
        try await store.createAdminKey(second)
        #expect(try await store.adminKey(id: first.id) == first)
        #expect(try await store.adminKey(id: "ak_ffffffffffffffff") == nil)
        // Oldest first, insertion order among equal dates.
        #expect(try await store.adminKeys().map(\.id) == [first.id, second.id])
        await #expect(throws: StoreError.conflict("name")) {
            try await store.createAdminKey(makeAdminKey("ak_0000000000000003", name: "ci"))
        }
        await #expect(throws: StoreError.conflict("id")) {
            try await store.createAdminKey(makeAdminKey(first.id, name: "other"))
        }
        #expect(try await store.adminKeys().count == 2)
    }

    func adminKeyRevocationAndUse() async throws {
        let key = makeAdminKey("ak_0000000000000001", name: "ops")
        try await store.createAdminKey(key)
        try await store.recordAdminKeyUse(id: key.id, now: t0 + 60)
        #expect(try await store.adminKey(id: key.id)?.lastUsedAt == t0 + 60)
        // An earlier use never moves it back.
        try await store.recordAdminKeyUse(id: key.id, now: t0 + 30)
        #expect(try await store.adminKey(id: key.id)?.lastUsedAt == t0 + 60)
        try await store.recordAdminKeyUse(id: "ak_ffffffffffffffff", now: t0)

        let revoked = try #require(try await store.revokeAdminKey(id: key.id, now: t0 + 120))
        #expect(revoked.revokedAt == t0 + 120)
        #expect(try await store.revokeAdminKey(id: key.id, now: t0 + 240)?.revokedAt == t0 + 120, "the first date stays")
        #expect(try await store.revokeAdminKey(id: "ak_ffffffffffffffff", now: t0) == nil)
        #expect(try await store.adminKey(id: key.id)?.verdict(presentedHash: key.keyHash) == .refused)
    }

    func userRolesChange() async throws {
        try await store.createUser(makeUser())
        let updated = try await store.updateUser(id: "u1", UserUpdate(roles: ["support", "auditor"]))
        #expect(updated.roles == ["support", "auditor"])
        #expect(try await store.user(id: "u1")?.roles == ["support", "auditor"])
        // Other changes leave the roles alone.
        try await store.updateUser(id: "u1", UserUpdate(phone: "+33600000001"))
        #expect(try await store.user(id: "u1")?.roles == ["support", "auditor"])
        try await store.updateUser(id: "u1", UserUpdate(roles: []))
        #expect(try await store.user(id: "u1")?.roles == [])
    }

    // MARK: Passkeys (v3-passkeys)

    func makePasskey(_ id: String, userID: String = "u1", credential: UInt8, at time: Date? = nil) -> PasskeyRecord {
        PasskeyRecord(
            id: id, userID: userID, credentialID: [credential, 1, 2, 3], publicKey: [0xA5, credential], signCount: 0,
            backupEligible: true, backedUp: false, aaguid: [UInt8](repeating: 0, count: 16), attestationType: "none",
            attestationFormat: "none", name: "Key \(id)", createdAt: time ?? t0)
    }

    func passkeyRegistrationRoundTrip() async throws {
        try await store.createUser(makeUser())
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        let first = makePasskey("pk_1", credential: 1)
        #expect(try await store.registerPasskey(first, maximumPerUser: 2) == .registered(first))
        #expect(try await store.passkey(id: "pk_1") == first)
        #expect(try await store.passkey(credentialID: [1, 1, 2, 3]) == first)
        #expect(try await store.passkey(credentialID: [9]) == nil)
        // The credential id is unique across users.
        #expect(try await store.registerPasskey(makePasskey("pk_2", userID: "u2", credential: 1), maximumPerUser: 2) == .duplicateCredential)
        let second = makePasskey("pk_3", credential: 3, at: t0 + 1)
        #expect(try await store.registerPasskey(second, maximumPerUser: 2) == .registered(second))
        #expect(try await store.registerPasskey(makePasskey("pk_4", credential: 4), maximumPerUser: 2) == .limitReached)
        #expect(try await store.passkeys(userID: "u1") == [first, second])
        #expect(try await store.passkeys(userID: "u2") == [])
        #expect(try await store.deletePasskey(id: "pk_1"))
        #expect(try await store.deletePasskey(id: "pk_1") == false)
        #expect(try await store.passkeys(userID: "u1") == [second])
    }

    func passkeyCounterIsComparedAndSet() async throws {
        try await store.createUser(makeUser())
        var passkey = makePasskey("pk_1", credential: 1)
        passkey.signCount = 5
        _ = try await store.registerPasskey(passkey, maximumPerUser: 10)
        #expect(try await store.recordPasskeyUse(id: "pk_1", expectedSignCount: 4, signCount: 6, backedUp: true, now: t0 + 1) == false)
        #expect(try await store.recordPasskeyUse(id: "pk_1", expectedSignCount: 5, signCount: 6, backedUp: true, now: t0 + 1))
        let used = try #require(try await store.passkey(id: "pk_1"))
        #expect(used.signCount == 6 && used.backedUp && used.lastUsedAt == t0 + 1)
        // Two assertions checked against the same counter: one lands.
        let store = self.store
        let t0 = self.t0
        let results = try await inParallel(8) {
            try await store.recordPasskeyUse(id: "pk_1", expectedSignCount: 6, signCount: 7, backedUp: true, now: t0 + 2)
        }
        #expect(results.filter { $0 }.count == 1)
        // A suspect passkey takes no more uses.
        #expect(try await store.markPasskeySuspect(id: "pk_1")?.status == .suspect)
        #expect(try await store.recordPasskeyUse(id: "pk_1", expectedSignCount: 7, signCount: 8, backedUp: true, now: t0 + 3) == false)
        #expect(try await store.markPasskeySuspect(id: "pk_none") == nil)
    }

    func parallelPasskeyRegistrationsRespectTheLimit() async throws {
        try await store.createUser(makeUser())
        let store = self.store
        let candidates = (0..<12).map { makePasskey("pk_\($0)", credential: UInt8($0)) }
        let results = try await withThrowingTaskGroup(of: PasskeyRegistration.self) { group in
            for candidate in candidates { group.addTask { try await store.registerPasskey(candidate, maximumPerUser: 5) } }
            var results: [PasskeyRegistration] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(results.filter { $0 == .limitReached }.count == 7)
        #expect(try await store.passkeys(userID: "u1").count == 5)
    }

    // MARK: Passkey proofs (v3-passkey-proofs)

    /// A user-verified passkey proves two categories with one proof: the extra category is
    /// collected by the pure decision, stored with the challenge and read back, and a failed
    /// deferred round discards it with the rest.
    func passkeyProofCategoriesRoundTrip() async throws {
        var challenge = makeChallenge("c1")
        challenge.verdict = .deferred
        challenge.methods = [.passkey, .password]
        try await store.insertChallenge(challenge)
        #expect(try await store.challenge(id: "c1")?.extraCategories == [])

        var proved = challenge
        proved.pendingMethod = .passkey
        proved.collect(.passkey, passed: true, extra: .inherence)
        #expect(proved.pendingMethod == nil)
        #expect(proved.collectedCategories == [.possession, .inherence])
        #expect(proved.authenticationMethodReferences == [.passkey, .passkeyUserVerified])
        #expect(try await store.updateChallenge(proved, expectedVersion: 0))
        let stored = try #require(try await store.challenge(id: "c1"))
        #expect(stored.extraCategories == [.inherence])
        #expect(stored.acceptedCategories == [.possession, .inherence])

        // A wrong password in the same round: its category counts as collected, the extra
        // category is no longer accepted, and the round is discarded with everything in it.
        var wrong = stored
        wrong.collect(.password, passed: false)
        #expect(wrong.collectedCategories == [.knowledge, .possession, .inherence])
        #expect(wrong.acceptedCategories == [.possession])
        wrong.discardRound()
        #expect(try await store.updateChallenge(wrong, expectedVersion: 1))
        let discarded = try #require(try await store.challenge(id: "c1"))
        #expect(discarded.extraCategories == [] && discarded.acceptedMethods == [] && discarded.failedAttempts == 1)

        // Without user verification, possession only; under the immediate verdict a wrong
        // proof counts a failure and adds nothing.
        var immediate = makeChallenge("c2")
        immediate.verdict = .immediate
        immediate.collect(.passkey, passed: false, extra: .inherence)
        #expect(immediate.extraCategories == [] && immediate.failedAttempts == 1)
        immediate.collect(.passkey, passed: true)
        #expect(immediate.collectedCategories == [.possession])
        #expect(immediate.authenticationMethodReferences == [.passkey])
        try await store.insertChallenge(immediate)
        #expect(try await store.challenge(id: "c2") == immediate)
    }
}
