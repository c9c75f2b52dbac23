import Foundation
import SCAStorage
import Testing

// Compare-and-set on a user (parallel enrolments and profile changes).
extension StoreConformance {
    /// An update with a precondition applies only while it holds: otherwise
    /// `conflict("precondition")` and nothing changes; of twenty parallel first secrets exactly
    /// one lands.
    func userPreconditionIsACompareAndSet() async throws {
        try await store.createUser(UserRecord(id: "u1", email: "new@example.com", emailOTPEnabled: true, createdAt: t0))
        let outcomes = try await inParallel(20) { () -> String in
            do {
                _ = try await store.updateUser(
                    id: "u1", UserUpdate(passwordHash: "hash-\(UUID().uuidString)", precondition: .noSecrets))
                return "set"
            } catch StoreError.conflict(let field) {
                return "conflict:\(field)"
            }
        }
        #expect(outcomes.filter { $0 == "set" }.count == 1)
        #expect(outcomes.filter { $0 == "conflict:precondition" }.count == 19)
        let stored = try #require(try await store.user(id: "u1"))
        #expect(stored.passwordHash != nil)
        await #expect(throws: StoreError.conflict("precondition")) {
            try await store.updateUser(id: "u1", UserUpdate(pinHash: "pin", precondition: .noSecrets))
        }
        #expect(try await store.user(id: "u1")?.pinHash == nil)

        // The profile read is the compare: a stale one is refused, the current one applies.
        let first = UserProfile(name: "Ada")
        _ = try await store.updateUser(id: "u1", UserUpdate(profile: first, precondition: .profile(UserProfile())))
        await #expect(throws: StoreError.conflict("precondition")) {
            try await store.updateUser(
                id: "u1", UserUpdate(profile: UserProfile(attributes: ["a": "b"]), precondition: .profile(UserProfile())))
        }
        #expect(try await store.user(id: "u1")?.profile == first)
        let merged = UserProfile(name: "Ada", attributes: ["a": "b"])
        #expect(try await store.updateUser(id: "u1", UserUpdate(profile: merged, precondition: .profile(first))).profile == merged)
        await #expect(throws: StoreError.notFound) {
            try await store.updateUser(id: "nobody", UserUpdate(profile: merged, precondition: .noSecrets))
        }
    }
}
