import Foundation
import SCACore
import Testing

@Suite("Bad input: a clear problem code, and nothing written")
struct InputValidationTests {
    @Test("malformed JSON, a wrong type, an unknown enum value: 400 request.invalid")
    func malformedBodies() async throws {
        try await TestServer().run { api in
            for raw in [
                "{not json", "[]", #"{"operation":"teleport","user":{"email":"a@example.com"}}"#,
                #"{"operation":"login","user":{"email":42}}"#, #"{"operation":"login"}"#,
                #"{"operation":"login","user":{"email":"a@example.com","userId":"usr_x"}}"#,
                #"{"operation":"login","user":{"email":"not-an-email"}}"#,
                #"{"operation":"login","user":{"email":"a@example.com"},"transaction":{"amount":"1.00","currency":"EUR","payee":{"name":"X"}}}"#,
                #"{"operation":"payment","user":{"email":"a@example.com"}}"#,
                #"{"operation":"payment","user":{"email":"a@example.com"},"transaction":{"amount":"1,00","currency":"EUR","payee":{"name":"X"}}}"#,
            ] {
                let response = try await api.post("/v1/challenges", raw: raw)
                #expect(response.status == 400, "\(raw)")
                #expect(response.problem?.code == .requestInvalid)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test("a body over 64 KiB: 413")
    func oversizeBody() async throws {
        try await TestServer().run { api in
            let big = #"{"operation":"login","user":{"email":""# + String(repeating: "a", count: 70_000) + #"@example.com"}}"#
            let response = try await api.post("/v1/challenges", raw: big)
            #expect(response.status == 413)
            #expect(response.problem?.code == .requestTooLarge)
        }
    }

    @Test("bad proofs change nothing: no attempt counted, no progress recorded")
    func badProofsWriteNothing() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("strict@example.com", pin: "2468")
            let challenge = try await api.startChallenge(email: "strict@example.com")
            for raw in [
                #"{"method":"fingerprint","credential":"x"}"#, #"{"method":"pin","credential":"12ab"}"#,
                #"{"method":"pin"}"#, #"{"method":"password","credential":""}"#, "{",
                #"{"method":"password","credential":7}"#,
            ] {
                let response = try await api.post("/v1/challenges/\(challenge.challengeId)/proofs", raw: raw)
                #expect(response.status == 400, "\(raw)")
            }
            let state = try await api.send(.get, "/v1/challenges/\(challenge.challengeId)").decode(ChallengeResponse.self)
            #expect(state.satisfiedCategories.isEmpty)
            #expect(try await api.services.users.find(userID)?.lockout.failedAttempts == 0)
            #expect(try await api.send(.get, "/v1/challenges/ch_doesnotexist").problem?.code == .challengeNotFound)
            #expect(try await api.send(.get, "/v1/challenges/../../etc").status == 404)
            // The challenge first: on one that does not exist, the same proofs are not found.
            for raw in [#"{"method":"pin","credential":"12ab"}"#, #"{"method":"passkey"}"#] {
                let unknown = try await api.post("/v1/challenges/ch_doesnotexist/proofs", raw: raw)
                #expect(unknown.status == 404, "\(raw)")
                #expect(unknown.problem?.code == .challengeNotFound)
            }
        }
    }

    @Test("admin API: key required, bad users refused and not stored, duplicates 409")
    func adminValidation() async throws {
        try await TestServer().run { api in
            let noKey = try await api.post("/admin/v1/users", CreateUserRequest(email: "x@example.com"))
            #expect(noKey.status == 401)
            for request in [
                CreateUserRequest(email: "bad"), CreateUserRequest(email: "p@example.com", password: "short"),
                CreateUserRequest(email: "p@example.com", pin: "12"), CreateUserRequest(email: "p@example.com", phone: "0612"),
            ] {
                #expect(try await api.post("/admin/v1/users", request, admin: true).status == 400)
            }
            #expect(try await api.services.users.list().isEmpty)
            _ = try await api.createUser("dup@example.com")
            let duplicate = try await api.post("/admin/v1/users", CreateUserRequest(email: "DUP@example.com"), admin: true)
            #expect(duplicate.status == 409)
            #expect(duplicate.problem?.code == .userExists)
        }
    }

    /// Scoped keys and operators work without the bootstrap key, so the admin API
    /// is no longer off without it: the bootstrap key alone stops working.
    @Test("without a bootstrap admin key that key is refused and nothing is created")
    func adminDisabled() async throws {
        try await TestServer { $0.adminKey = nil }.run { api in
            let response = try await api.post("/admin/v1/users", CreateUserRequest(email: "x@example.com"), admin: true)
            #expect(response.status == 401)
            #expect(response.problem?.code == .unauthorized)
            #expect(try await api.services.users.list().isEmpty)
        }
    }
}
