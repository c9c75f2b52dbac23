import Foundation
import GRDB
import SCACore
import SCAEngine
import SCAStorage
import Testing

/// A user erased through the admin API (GDPR art. 17): their data goes, their audit entries
/// stay in a chain that still proves whole, without the facts that named them.
@Suite("User erasure")
struct UserErasureTests {
    @Test("DELETE /admin/v1/users/{id}: the user and what they hold go; their entries lose their addresses; the chain verifies with the facts checked")
    func eraseThroughTheAdminAPI() async throws {
        try await TestServer { $0.trustedProxyHeader = "X-Forwarded-For" }.run { api in
            let anna = try await api.createUser("anna@example.com")
            let annaTOTP = try await api.enrollTOTP(anna)
            let bert = try await api.createUser("bert@example.com")
            let bertTOTP = try await api.enrollTOTP(bert)
            try await RetentionTests.logIn(api, "anna@example.com", annaTOTP, from: "198.51.100.7")
            api.clock.advance(by: 31)
            try await RetentionTests.logIn(api, "bert@example.com", bertTOTP, from: "203.0.113.5")
            let annasBefore = try await api.services.store.auditEntries(userID: anna, before: nil, limit: 100)
            #expect(annasBefore.contains { $0.draft.clientAddress == "198.51.100.7" && $0.draft.personalDigest != nil })

            let erased = try await api.send(.delete, "/admin/v1/users/\(anna)", admin: true)
            #expect(erased.status == 200)
            let summary = try erased.decode(UserErasureSummary.self)
            #expect(summary.userId == anna)
            #expect(summary.auditEntriesErased >= 1)
            #expect(summary.auditEntriesUnsealed == 0)
            #expect(summary.rowsDeleted >= 3)

            #expect(try await api.send(.get, "/admin/v1/users/\(anna)", admin: true).status == 404)
            #expect(try await api.send(.get, "/admin/v1/users/\(anna)/export", admin: true).status == 404)
            #expect(try await api.send(.delete, "/admin/v1/users/\(anna)", admin: true).status == 404)
            #expect(try await api.startChallengeStatus(email: "anna@example.com") == 201, "a decoy answers like a user")

            let entries = try await api.services.store.auditEntries(after: 0, limit: 1_000)
            let annas = entries.filter { $0.draft.userID == anna }
            #expect(annas.count == annasBefore.count + 1)
            #expect(annas.allSatisfy { $0.draft.clientAddress == nil })
            #expect(annas.last?.draft.event == "user.erased")
            // Bert keeps his.
            #expect(entries.contains { $0.draft.userID == bert && $0.draft.clientAddress == "203.0.113.5" })
            let status = try await api.services.engine.auditCheckpoints.check(against: nil)
            #expect(status.isIntact, "\(status)")

            // Bert signs in as before, and the chain goes on.
            api.clock.advance(by: 31)
            try await RetentionTests.logIn(api, "bert@example.com", bertTOTP)
            #expect(try await api.services.engine.auditCheckpoints.check(against: nil).isIntact)
        }
    }

    @Test("a personal fact edited in the file is found by the verification; the chain alone would not show it")
    func editedFactIsDetected() async throws {
        try await TestServer { $0.trustedProxyHeader = "X-Forwarded-For" }.run { api in
            let anna = try await api.createUser("anna@example.com")
            try await RetentionTests.logIn(api, "anna@example.com", try await api.enrollTOTP(anna), from: "198.51.100.7")
            let sealed = try #require(
                try await api.services.store.auditEntries(userID: anna, before: nil, limit: 100).first { $0.draft.clientAddress != nil })
            let file = try DatabaseQueue(path: api.services.configuration.databasePath)
            // The triggers allow clearing a sealed entry's facts, never changing them.
            await #expect(throws: DatabaseError.self) {
                try await file.write {
                    try $0.execute(sql: "UPDATE audit_entries SET client_address = '203.0.113.66' WHERE sequence = ?", arguments: [sealed.sequence])
                }
            }
            try await file.write {
                try $0.execute(sql: "DROP TRIGGER audit_entries_facts_erased_only")
                try $0.execute(sql: "UPDATE audit_entries SET client_address = '203.0.113.66' WHERE sequence = ?", arguments: [sealed.sequence])
            }
            let status = try await api.services.engine.auditCheckpoints.check(against: nil)
            #expect(status.brokenAt == sealed.sequence)
            #expect(status.broken?.contains("personal facts") == true)
        }
    }

    @Test("a malformed or unknown user id is 404 and erases nothing")
    func unknownUser() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("anna@example.com")
            for id in ["usr_nobody", "not-an-id"] {
                let response = try await api.send(.delete, "/admin/v1/users/\(id)", admin: true)
                #expect(response.status == 404)
                #expect(response.problem?.code == .userNotFound)
            }
            #expect(try await api.services.store.user(email: "anna@example.com") != nil)
        }
    }
}

extension APIClient {
    /// The status of a login challenge for `email`.
    func startChallengeStatus(email: String) async throws -> Int {
        try await post("/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: email))).status
    }
}
