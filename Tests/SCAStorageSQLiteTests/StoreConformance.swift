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
            rejectedMethods: [.pin], failedAttempts: 2, createdAt: t0 + 0.5, expiresAt: t0 + 300.25, completedAt: t0 + 10, version: 3
        )
        try await store.insertChallenge(payment)
        #expect(try await store.challenge(id: "c1") == payment)

        // A decoy: no owner, no transaction.
        let decoy = makeChallenge("c2", userID: nil)
        try await store.insertChallenge(decoy)
        #expect(try await store.challenge(id: "c2") == decoy)

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
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [1], now: t0 + 31) == false)
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [2], now: t0 + 31))

        // A new code after a used one can be used again.
        #expect(try await issue(3, at: t0 + 60) == .issued(sendCount: 3))
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [3], now: t0 + 61))
        #expect(try await issue(4, at: t0 + 90) == .limitReached)

        // Each method has its own count.
        let email = try await store.issueCode(
            challengeID: "c1", method: .emailOTP, codeHash: [5], now: t0 + 90, expiresAt: t0 + 390,
            minimumInterval: 30, maximumSends: 3
        )
        #expect(email == .issued(sendCount: 1))
    }

    func codesAreConsumedOnce() async throws {
        try await store.insertChallenge(makeChallenge())
        _ = try await store.issueCode(
            challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0, expiresAt: t0 + 300,
            minimumInterval: 30, maximumSends: 3
        )
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 4], now: t0) == false)
        #expect(try await store.consumeCode(challengeID: "c1", method: .smsOTP, codeHash: [1, 2, 3], now: t0) == false)
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0 + 300) == false, "expired")
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0 + 299.5))
        #expect(try await store.consumeCode(challengeID: "c1", method: .emailOTP, codeHash: [1, 2, 3], now: t0 + 299.5) == false)
        #expect(try await store.consumeCode(challengeID: "missing", method: .emailOTP, codeHash: [1, 2, 3], now: t0) == false)
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
        #expect(results.filter { $0 }.count == 1)
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
}
