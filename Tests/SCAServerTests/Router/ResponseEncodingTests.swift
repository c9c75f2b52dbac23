import Foundation
import SCACore
import Testing

/// The server writes its answers with ``WireJSONEncoder``; through the real routes, every body is
/// exactly what Foundation's `JSONEncoder` writes for the same content (sorted keys, the same
/// escapes and numbers), so clients see no change.
@Suite("Response encoding")
struct ResponseEncodingTests {
    /// `body` re-encoded by Foundation, from its own content: equal only if `body` was already
    /// in Foundation's form.
    static func expectFoundationForm(_ response: APIResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let content = try WireJSON.decoder().decode(JSONValue.self, from: response.body)
        let foundation = try WireJSON.sharedEncoder.encode(content)
        #expect(
            String(decoding: response.body, as: UTF8.self) == String(decoding: foundation, as: UTF8.self),
            sourceLocation: sourceLocation)
    }

    @Test("metadata, admin, challenge, proof, problem and audit answers are byte for byte Foundation's")
    func answers() async throws {
        try await TestServer().run { api in
            try Self.expectFoundationForm(try await api.send(.get, "/health/live"))
            try Self.expectFoundationForm(try await api.send(.get, "/.well-known/jwks.json"))
            try Self.expectFoundationForm(try await api.send(.get, "/.well-known/openid-configuration"))

            let userID = try await api.createUser("zoë+\"quoted\"/a@example.com", pin: "4711")
            let user = try await api.send(.get, "/admin/v1/users/\(userID)", admin: true)
            #expect(user.status == 200)
            try Self.expectFoundationForm(user)
            // Typed, too: the dates in the user's record come back as Foundation writes them.
            let typed = try user.decode(UserResponse.self)
            #expect(user.body == (try WireJSON.sharedEncoder.encode(typed)))

            let challenge = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: "zoë+\"quoted\"/a@example.com")))
            #expect(challenge.status == 201)
            try Self.expectFoundationForm(challenge)
            #expect(challenge.body == (try WireJSON.sharedEncoder.encode(try challenge.decode(ChallengeResponse.self))))

            let proof = try await api.prove(try challenge.decode(ChallengeResponse.self).challengeId, .password, "correct horse battery")
            #expect(proof.status == 200)
            try Self.expectFoundationForm(proof)

            let problem = try await api.post("/v1/challenges", raw: #"{"operation": "login", "user": "#)
            #expect(problem.status == 400)
            try Self.expectFoundationForm(problem)

            let audit = try await api.send(.get, "/admin/v1/audit", admin: true)
            #expect(audit.status == 200)
            try Self.expectFoundationForm(audit)
        }
    }
}
