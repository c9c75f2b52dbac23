import Foundation
import SCACore
import SCAStorage
import Testing

// Password resets (v12-password-reset), checked on every backend: the password, the
// restriction and the sessions change in one transaction, a redeemed PUK is burnt once, and a
// restriction is lifted only as it was set.
extension StoreConformance {
    func passwordResetReplacesRestrictsAndEndsSessions() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createSession(makeSession("s1"), refreshToken: nil)
        let until = t0 + 86_400

        let restricted = try await store.resetPassword(
            PasswordReset(userID: "u1", passwordHash: "$scrypt$new", restrictedUntil: until, redeemedPUK: nil, now: t0 + 5))

        #expect(restricted == .reset(sessionsEnded: 1))
        let user = try #require(try await store.user(id: "u1"))
        #expect(user.passwordHash == "$scrypt$new")
        #expect(user.restrictedUntil == until && user.isRestricted)
        #expect(try await store.session(id: "s1")?.revokedAt == t0 + 5)
        // Lifted only as it was set: another end (a reset meanwhile) is left alone.
        #expect(try await store.liftRestriction(userID: "u1", restrictedUntil: until + 1) == false)
        #expect(try await store.user(id: "u1")?.restrictedUntil == until)
        #expect(try await store.liftRestriction(userID: "u1", restrictedUntil: until))
        #expect(try await store.user(id: "u1")?.isRestricted == false)
        #expect(try await store.liftRestriction(userID: "u1", restrictedUntil: until) == false)

        // A complete reset clears a restriction, and a reset for nobody changes nothing.
        _ = try await store.resetPassword(
            PasswordReset(userID: "u1", passwordHash: "$scrypt$weak", restrictedUntil: until, redeemedPUK: nil, now: t0 + 6))
        #expect(try await store.resetPassword(
            PasswordReset(userID: "u1", passwordHash: "$scrypt$full", restrictedUntil: nil, redeemedPUK: nil, now: t0 + 7))
            == .reset(sessionsEnded: 0))
        #expect(try await store.user(id: "u1")?.restrictedUntil == nil)
        await #expect(throws: StoreError.notFound) {
            try await store.resetPassword(
                PasswordReset(userID: "nobody", passwordHash: "$scrypt$x", restrictedUntil: nil, redeemedPUK: nil, now: t0 + 8))
        }
    }

    func passwordResetBurnsItsPUKOnce() async throws {
        try await store.createUser(makeUser("u1"))
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        var sheet = makeSheet()
        sheet.lockout.failedAttempts = 2
        try await store.replaceRecoverySheet(sheet)
        let redeemed = PasswordReset.RedeemedPUK(codeDigest: sheet.codeDigest, usedPUKs: 0)

        // Another user's reset with this sheet changes nothing.
        #expect(try await store.resetPassword(
            PasswordReset(userID: "u2", passwordHash: "$scrypt$theirs", restrictedUntil: nil, redeemedPUK: redeemed, now: t0 + 1))
            == .pukUsed)
        #expect(try await store.user(id: "u2")?.passwordHash == makeUser("u2", email: "bob@example.com").passwordHash)

        let store = self.store
        let t0 = self.t0
        let outcomes = try await withThrowingTaskGroup(of: PasswordResetCompletion.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await store.resetPassword(
                        PasswordReset(
                            userID: "u1", passwordHash: "$scrypt$\(index)", restrictedUntil: nil, redeemedPUK: redeemed, now: t0 + 5))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .reset(sessionsEnded: 0) }.count == 1)
        #expect(outcomes.filter { $0 == .pukUsed }.count == 11)
        let after = try #require(try await store.recoverySheet(userID: "u1"))
        #expect(after.usedPUKs == 1)
        #expect(after.lockout.failedAttempts == 0)
        #expect(try await store.user(id: "u1")?.passwordHash?.hasPrefix("$scrypt$") == true)
    }
}
