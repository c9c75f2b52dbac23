import Foundation
import SCACore
import SCAStorage
import Testing

// What the operator console looks up (v9-console-lookups), checked on every backend: users by
// the start of their e-mail or by a phone number, and a user's newest audit entries.
extension StoreConformance {
    func usersAreFoundByEmailPrefixAndPhone() async throws {
        try await store.createUser(makeUser("u1", email: "anna.berg@example.com"))
        var second = makeUser("u2", email: "anna.bell@example.org")
        second.phone = "+41791234567"
        try await store.createUser(second)
        var third = makeUser("u3", email: "bert@example.com")
        third.loginPhone = "+41791234567"
        try await store.createUser(third)
        try await store.createUser(makeUser("u4", email: "annabel@example.com"))

        // In e-mail order, compared lower-cased, at most the limit.
        #expect(try await store.findUsers(.emailPrefix("Anna."), limit: 10).map(\.id) == ["u2", "u1"])
        #expect(try await store.findUsers(.emailPrefix("anna"), limit: 10).map(\.id) == ["u2", "u1", "u4"])
        #expect(try await store.findUsers(.emailPrefix("anna"), limit: 2).map(\.id) == ["u2", "u1"])
        #expect(try await store.findUsers(.emailPrefix("anna.berg@example.com"), limit: 10).map(\.id) == ["u1"])
        #expect(try await store.findUsers(.emailPrefix("zed"), limit: 10).isEmpty)
        // A prefix is text, not a pattern.
        #expect(try await store.findUsers(.emailPrefix("anna%"), limit: 10).isEmpty)
        #expect(try await store.findUsers(.emailPrefix("_nna"), limit: 10).isEmpty)

        // The SMS phone and the sign-in phone both find their user.
        #expect(try await store.findUsers(.phone("+41791234567"), limit: 10).map(\.id) == ["u2", "u3"])
        #expect(try await store.findUsers(.phone("+41790000000"), limit: 10).isEmpty)

        // Pages: from after a user, in the same order; an unknown user starts no page.
        #expect(try await store.findUsers(.emailPrefix("anna"), after: "u2", limit: 10).map(\.id) == ["u1", "u4"])
        #expect(try await store.findUsers(.emailPrefix("anna"), after: "u1", limit: 1).map(\.id) == ["u4"])
        #expect(try await store.findUsers(.emailPrefix("anna"), after: "u4", limit: 10).isEmpty)
        #expect(try await store.findUsers(.emailPrefix("anna"), after: "nobody", limit: 10).isEmpty)
        #expect(try await store.findUsers(.phone("+41791234567"), after: "u2", limit: 10).map(\.id) == ["u3"])
    }

    func authenticatorAppIsRemoved() async throws {
        try await store.createUser(makeUser("u1", email: "anna.berg@example.com"))
        _ = try await store.updateUser(id: "u1", UserUpdate(pinHash: "pin", sealedTOTPSeed: [1, 2, 3]))
        #expect(try await store.user(id: "u1")?.sealedTOTPSeed == [1, 2, 3])
        var removal = UserUpdate()
        removal.removesAuthenticatorApp = true
        let removed = try await store.updateUser(id: "u1", removal)
        #expect(removed.sealedTOTPSeed == nil)
        #expect(removed.pinHash == "pin")
        #expect(try await store.user(id: "u1")?.sealedTOTPSeed == nil)
        #expect(try await store.user(id: "u1")?.enrolledMethods.contains(.totp) == false)
        // A new app can then be set up.
        _ = try await store.updateUser(id: "u1", UserUpdate(sealedTOTPSeed: [4]))
        #expect(try await store.user(id: "u1")?.sealedTOTPSeed == [4])
    }

    func userTimelineIsNewestFirst() async throws {
        for index in 0..<7 {
            _ = try await store.appendAuditEntry(
                AuditEntryDraft(
                    time: t0 + Double(index), event: "test.event", actor: "test", userID: index % 2 == 0 ? "u1" : "u2",
                    outcome: "success", details: ["index": String(index)]))
        }
        let newest = try await store.auditEntries(userID: "u1", before: nil, limit: 3)
        #expect(newest.map { $0.draft.details["index"] } == ["6", "4", "2"])
        let next = try await store.auditEntries(userID: "u1", before: newest.last?.sequence, limit: 3)
        #expect(next.map { $0.draft.details["index"] } == ["0"])
        #expect(try await store.auditEntries(userID: "u2", before: nil, limit: 10).count == 3)
        #expect(try await store.auditEntries(userID: "nobody", before: nil, limit: 10).isEmpty)
    }
}
