import Foundation
import SCACore
import SCAStorage
import Testing

// Sign-up or in (v3-signup).
extension StoreConformance {
    /// Twenty inserts of one new address at once (parallel sign-ups): exactly one lands, the
    /// others are `conflict("email")`, and the address has one user.
    func parallelSignUpsCreateOneUser() async throws {
        let outcomes = try await inParallel(20) { () -> String in
            let user = UserRecord(
                id: "usr_\(UUID().uuidString.prefix(8))", email: "race@example.com", emailOTPEnabled: true, createdAt: t0)
            do {
                try await store.createUser(user)
                return "created"
            } catch StoreError.conflict(let field) {
                return "conflict:\(field)"
            }
        }
        #expect(outcomes.filter { $0 == "created" }.count == 1)
        #expect(outcomes.filter { $0 == "conflict:email" }.count == 19)
        #expect(try await store.users().filter { $0.email == "race@example.com" }.count == 1)
    }

    /// A profile is stored whole, read back as written (NFC text, keys as given), replaced whole
    /// by an update, and left alone by updates of other fields; a user without one has an empty one.
    func profileRoundTrip() async throws {
        try await store.createUser(makeUser())
        #expect(try await store.user(id: "u1")?.profile == UserProfile())
        let profile = UserProfile(name: "Zoë Ångström", attributes: ["tier": "gold", "customer_no": "C-0042"])
        var created = makeUser("u2", email: "bob@example.com")
        created.profile = profile
        try await store.createUser(created)
        #expect(try await store.user(id: "u2")?.profile == profile)

        let updated = try await store.updateUser(id: "u1", UserUpdate(profile: UserProfile(name: "Alice")))
        #expect(updated.profile == UserProfile(name: "Alice"))
        _ = try await store.updateUser(id: "u1", UserUpdate(phone: "+33612345678"))
        #expect(try await store.user(id: "u1")?.profile == UserProfile(name: "Alice"))
        _ = try await store.updateUser(id: "u1", UserUpdate(profile: UserProfile(attributes: ["a": "b"])))
        #expect(try await store.user(email: "alice@example.com")?.profile == UserProfile(attributes: ["a": "b"]))
    }
}
