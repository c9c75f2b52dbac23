import Foundation
import SCACore
import SCAStorage
import Testing

// Sign-up by phone (v3-signup-phone).
extension StoreConformance {
    /// A login phone is stored, found exactly (and only by itself: not by the SMS phone that
    /// several users may share), and taken once: a second user with it is `conflict("loginPhone")`
    /// and nothing is written.
    func loginPhoneLookup() async throws {
        var phoneUser = makeUser("u1", email: "33612345678@phone.invalid")
        phoneUser.phone = "+33612345678"
        phoneUser.loginPhone = "+33612345678"
        try await store.createUser(phoneUser)
        // Another user may share the SMS phone; that does not make it their login phone.
        var sharing = makeUser("u2", email: "bob@example.com")
        sharing.phone = "+33612345678"
        try await store.createUser(sharing)

        #expect(try await store.user(loginPhone: "+33612345678")?.id == "u1")
        #expect(try await store.user(loginPhone: "+33612345678")?.loginPhone == "+33612345678")
        #expect(try await store.user(id: "u2")?.loginPhone == nil)
        #expect(try await store.user(loginPhone: "+33612345679") == nil)
        #expect(try await store.user(loginPhone: "33612345678") == nil)

        var again = makeUser("u3", email: "carol@example.com")
        again.loginPhone = "+33612345678"
        await #expect(throws: StoreError.conflict("loginPhone")) { try await store.createUser(again) }
        #expect(try await store.user(id: "u3") == nil)
        // Users without a login phone never collide on it.
        try await store.createUser(makeUser("u4", email: "dave@example.com"))
        #expect(try await store.users().count == 3)
    }

    /// Twenty inserts of one new login phone at once (parallel phone sign-ups), each with its
    /// own e-mail: exactly one lands, the others are `conflict("loginPhone")`.
    func parallelPhoneSignUpsCreateOneUser() async throws {
        let outcomes = try await inParallel(20) { () -> String in
            let id = "usr_\(UUID().uuidString.prefix(8))"
            let user = UserRecord(
                id: id, email: "\(id)@phone.invalid", phone: "+447700900123", createdAt: t0, loginPhone: "+447700900123")
            do {
                try await store.createUser(user)
                return "created"
            } catch StoreError.conflict(let field) {
                return "conflict:\(field)"
            }
        }
        #expect(outcomes.filter { $0 == "created" }.count == 1)
        #expect(outcomes.filter { $0 == "conflict:loginPhone" }.count == 19)
        #expect(try await store.users().filter { $0.loginPhone == "+447700900123" }.count == 1)
    }
}
