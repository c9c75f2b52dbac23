import Foundation
import SCACore
import SCAStorage
import Testing

// Recovery sheets (v10-recovery-sheets), checked on every backend: one sheet per user, found by
// its code's digest, counters changed by the pure lockout transitions, and a PUK burnt once
// with the device it binds.
extension StoreConformance {
    func makeSheet(userID: String = "u1", code: UInt8 = 1, createdAt: Date = StoreConformance.t0) -> RecoverySheetRecord {
        RecoverySheetRecord(
            userID: userID, codeDigest: [UInt8](repeating: code, count: 32),
            pukDigests: (1...3).map { [UInt8](repeating: code &+ $0, count: 32) }, createdAt: createdAt)
    }

    func recoverySheetsReplaceAndCount() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        try await store.replaceRecoverySheet(makeSheet())
        #expect(try await store.recoverySheet(userID: "u1") == makeSheet())
        #expect(try await store.recoverySheet(userID: "u2") == nil)

        // Counters change by the transition, in one write, and are read back.
        let policy = LockoutPolicy()
        let reserved = try #require(try await store.updateRecoveryLockout(codeDigest: makeSheet().codeDigest) {
            $0.reserveAttempt(policy: policy, now: StoreConformance.t0)
        })
        #expect(reserved.outcome == .granted(remaining: 4))
        #expect(reserved.sheet.userID == "u1")
        #expect(try await store.recoverySheet(userID: "u1")?.lockout.failedAttempts == 1)
        #expect(try await store.updateRecoveryLockout(codeDigest: [9]) { $0.releaseAttempt() } == nil)

        // A new sheet replaces the old, whose code finds nothing any more; its counters start fresh.
        try await store.replaceRecoverySheet(makeSheet(code: 7))
        #expect(try await store.updateRecoveryLockout(codeDigest: makeSheet().codeDigest) { $0.releaseAttempt() } == nil)
        #expect(try await store.recoverySheet(userID: "u1") == makeSheet(code: 7))

        // Another user's sheet with the same code is refused, and a sheet for nobody.
        await #expect(throws: StoreError.conflict("code")) { try await store.replaceRecoverySheet(makeSheet(userID: "u2", code: 7)) }
        #expect(try await store.recoverySheet(userID: "u2") == nil)
        await #expect(throws: StoreError.notFound) { try await store.replaceRecoverySheet(makeSheet(userID: "nobody", code: 8)) }
    }

    func recoveryBurnsAPUKOnceWithItsDevice() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createActivationCode(makeActivationCode(), maximumTries: 3)
        #expect(try await register(makeDevice("d_lost")) == .registered(makeDevice("d_lost")))
        try await store.createSession(makeSession("s1"), refreshToken: nil)
        var sheet = makeSheet()
        sheet.lockout.failedAttempts = 2
        try await store.replaceRecoverySheet(sheet)

        let outcome = try await store.completeRecovery(
            codeDigest: sheet.codeDigest, usedPUKs: 0, device: makeDevice("d_new", userID: "ignored"), now: t0 + 10)

        #expect(outcome == .recovered(device: makeDevice("d_new"), devicesRemoved: 1, sessionsEnded: 1))
        #expect(try await store.device(id: "d_lost")?.status == .removed)
        #expect(try await store.device(id: "d_new")?.userID == "u1")
        #expect(try await store.session(id: "s1")?.revokedAt == t0 + 10)
        let after = try #require(try await store.recoverySheet(userID: "u1"))
        #expect(after.usedPUKs == 1)
        #expect(after.nextPUKDigest == sheet.pukDigests[1])
        #expect(after.lockout.failedAttempts == 0)
        // The same PUK again is refused and changes nothing.
        #expect(
            try await store.completeRecovery(codeDigest: sheet.codeDigest, usedPUKs: 0, device: makeDevice("d_again"), now: t0 + 20)
                == .pukUsed)
        #expect(try await store.device(id: "d_again") == nil)
        #expect(try await store.recoverySheet(userID: "u1")?.usedPUKs == 1)
    }

    func parallelRecoveriesBurnAPUKOnce() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.replaceRecoverySheet(makeSheet())
        let store = self.store
        let t0 = self.t0
        let digest = makeSheet().codeDigest
        let outcomes = try await withThrowingTaskGroup(of: RecoveryCompletion.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await store.completeRecovery(codeDigest: digest, usedPUKs: 0, device: self.makeDevice("d\(index)"), now: t0 + 5)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .recovered = $0 { true } else { false } }.count == 1)
        #expect(outcomes.filter { $0 == .pukUsed }.count == 11)
        #expect(try await store.devices(userID: "u1").filter { $0.status != .removed }.count == 1)
        #expect(try await store.recoverySheet(userID: "u1")?.usedPUKs == 1)
    }
}
