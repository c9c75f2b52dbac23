import Foundation
import SCACore
import SCAStorage
import Testing

// An operator sets a user's login phone.
extension StoreConformance {
    /// `UserUpdate.loginPhone` sets the login phone; one another user holds is
    /// `conflict("loginPhone")` and changes nothing (not even the update's other fields); the
    /// user's own number again is no conflict.
    func loginPhoneUpdate() async throws {
        try await store.createUser(makeUser("u1", email: "alice@example.com"))
        var holder = makeUser("u2", email: "bob@example.com")
        holder.loginPhone = "+33612345678"
        try await store.createUser(holder)

        let set = try await store.updateUser(id: "u1", UserUpdate(loginPhone: "+447700900123"))
        #expect(set.loginPhone == "+447700900123")
        #expect(try await store.user(loginPhone: "+447700900123")?.id == "u1")
        #expect(try await store.updateUser(id: "u1", UserUpdate(loginPhone: "+447700900123")).loginPhone == "+447700900123")

        await #expect(throws: StoreError.conflict("loginPhone")) {
            try await store.updateUser(id: "u1", UserUpdate(phone: "+33600000000", loginPhone: "+33612345678"))
        }
        let unchanged = try #require(try await store.user(id: "u1"))
        #expect(unchanged.loginPhone == "+447700900123")
        #expect(unchanged.phone == nil)
        #expect(try await store.user(loginPhone: "+33612345678")?.id == "u2")
    }
}
