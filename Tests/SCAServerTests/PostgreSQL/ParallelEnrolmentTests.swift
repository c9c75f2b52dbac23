import Foundation
import HTTPTypes
import SCACore
import Testing

/// Parallel writes to one user: enrolments are a compare-and-set on the user's
/// secrets, profile changes a compare-and-set on the profile read, on SQLite and PostgreSQL.
@Suite("Parallel enrolments and profile changes")
struct ParallelEnrolmentTests {
    static let postgres = ServerPair.databaseURL != nil

    @Test("20 parallel enrolments of one new user: one sets its secret, the others get 409 enrolment.complete (SQLite)")
    func enrolmentsSQLite() async throws {
        try await TestServer(SignUpTests.parallelSettings).run { api in try await Self.parallelEnrolments(api) }
    }

    @Test(
        "20 parallel enrolments of one new user: one sets its secret, the others get 409 enrolment.complete (PostgreSQL)",
        .enabled(if: postgres, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func enrolmentsPostgres() async throws {
        try await TestServer.runOnPostgres(SignUpTests.parallelSettings) { api in try await Self.parallelEnrolments(api) }
    }

    @Test("20 parallel profile changes of different fields: none is lost (SQLite)")
    func profilesSQLite() async throws {
        try await TestServer().run { api in try await Self.parallelProfiles(api) }
    }

    @Test(
        "20 parallel profile changes of different fields: none is lost (PostgreSQL)",
        .enabled(if: postgres, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func profilesPostgres() async throws {
        try await TestServer.runOnPostgres { api in try await Self.parallelProfiles(api) }
    }

    /// Twenty enrolment tokens for one new user (each sign-up of the unfinished address resumes
    /// it), used at once, half with a password and half with a PIN.
    static func parallelEnrolments(_ api: APIClient) async throws {
        var tokens: [String] = []
        for _ in 0..<20 {
            tokens.append(try #require(try await api.signUp("twice@example.com").accessToken))
        }
        let user = try #require(try await api.services.users.find("twice@example.com"))
        let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
            for (index, token) in tokens.enumerated() {
                let request = index.isMultiple(of: 2)
                    ? EnrolmentRequest(password: "passphrase number \(index)") : EnrolmentRequest(pin: "48291\(index % 10)")
                let body = try WireJSON.encoder().encode(request)
                group.addTask { try await api.send(.post, "/v1/me/enrolment", bearer: token, body: body) }
            }
            var all: [APIResponse] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.filter { $0.status == 200 }.count == 1)
        let refused = answers.filter { $0.status != 200 }
        #expect(refused.count == 19)
        #expect(refused.allSatisfy { $0.status == 409 && $0.problem?.code == .enrolmentComplete })
        let stored = try #require(try await api.services.store.user(id: user.id))
        // One secret: a password or a PIN, never both, never overwritten.
        #expect((stored.passwordHash == nil) != (stored.pinHash == nil))
        let events = try await api.services.store.auditEntries(after: 0, limit: 10_000).map(\.draft.event)
        #expect(events.filter { $0 == "signup.enrolled" }.count == 1)
    }

    /// Ten operators set the name and ten the attributes of one user at once: both stay.
    static func parallelProfiles(_ api: APIClient) async throws {
        let userID = try await api.createUser("profiled@example.com")
        let answers = try await withThrowingTaskGroup(of: APIResponse.self) { group in
            for index in 0..<20 {
                let request = index.isMultiple(of: 2)
                    ? ProfileRequest(name: "Ada Lovelace") : ProfileRequest(attributes: ["tier": "gold", "n": "\(index)"])
                let body = try WireJSON.encoder().encode(request)
                group.addTask { try await api.send(.put, "/admin/v1/users/\(userID)/profile", body: body, admin: true) }
            }
            var all: [APIResponse] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
        let stored = try #require(try await api.services.store.user(id: userID))
        #expect(stored.profile.name == "Ada Lovelace", "the name is never lost to a parallel attributes write")
        #expect(stored.profile.attributes["tier"] == "gold", "the attributes are never lost to a parallel name write")
    }
}
