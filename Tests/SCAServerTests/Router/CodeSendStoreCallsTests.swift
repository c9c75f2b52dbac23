import Foundation
import SCACore
import SCAStorageSQLite
import Synchronization
import Testing

/// The code request of a sign-up-or-in challenge makes the same store calls for a new address
/// (a decoy, which reads a user that does not exist) as for a known one: counted on a
/// real server over a real SQLite file by tracing the statements the store runs.
@Suite("Code requests: the same store calls for a known address and a new one")
struct CodeSendStoreCallsTests {
    /// The statements a store ran since the last `take`.
    final class Statements: Sendable {
        private let log = Mutex<[String]>([])
        func append(_ statement: String) { log.withLock { $0.append(statement) } }
        func take() -> [String] { log.withLock { log in defer { log = [] }; return log } }
    }

    @Test("POST /v1/challenges/{id}/otp after signup-or-in: a known address and a new one run the same statements")
    func sameStatements() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-calls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let statements = Statements()
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path) { statements.append($0) }
        try await TestServer(store: store) { $0.signUp.mode = .email }.run { api in
            _ = try await api.createUser("ann@example.com", emailCodes: true)
            var seen: [String: [String]] = [:]
            for email in ["ann@example.com", "abe@example.com"] {
                let opened = try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: email))
                let challenge = try opened.decode(ChallengeResponse.self)
                _ = statements.take()
                #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
                seen[email] = statements.take()
            }
            let known = try #require(seen["ann@example.com"])
            let new = try #require(seen["abe@example.com"])
            #expect(known.contains { $0.contains("FROM users") || $0.contains("FROM \"users\"") })
            #expect(new == known)
        }
    }
}
