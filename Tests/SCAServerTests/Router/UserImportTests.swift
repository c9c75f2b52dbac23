import Foundation
import SCACore
import SCAEngine
import SCAStorage
import Testing

/// Users moved in from another system keep their passwords: each imported hash verifies at the
/// first login as it is, then is replaced by the server's own scrypt hash.
@Suite("User import")
struct UserImportTests {
    /// Published vectors with their passwords: bcrypt (OpenBSD's test vectors), argon2id (the
    /// reference implementation's), PBKDF2-SHA256 as Keycloak stores it (RFC 7914's vector).
    static let bcrypt = (password: "U*U", hash: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")
    static let argon2id = (password: "password", hash: "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4")
    static let seed = "JBSWY3DPEHPK3PXPJBSWY3DP"

    static func write(_ lines: [String], in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("import-\(UUID().uuidString).jsonl").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func logIn(_ api: APIClient, _ email: String, _ password: String, _ totp: TOTP) async throws -> (Int, Int) {
        let challenge = try await api.startChallenge(email: email)
        let first = try await api.prove(challenge.challengeId, .password, password)
        guard first.status == 200 else { return (first.status, 0) }
        let second = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
        return (first.status, second.status)
    }

    @Test("bcrypt and argon2id users sign in with their old passwords; the first success stores scrypt; a wrong password changes nothing")
    func importedHashesSignIn() async throws {
        let server = try await TestServer()
        let path = try Self.write([
            #"{"email": "Bcrypt@Example.com", "passwordHash": "\#(Self.bcrypt.hash)", "totpSeed": "\#(Self.seed)"}"#,
            #"{"email": "argon@example.com", "passwordHash": "\#(Self.argon2id.hash)", "totpSeed": "\#(Self.seed)", "emailCodes": false}"#,
        ], in: server.directory)
        try await server.run { api in
            let report = try await api.services.users.importUsers(fromFile: path)
            #expect(report.lines == 2 && report.imported == 2 && report.refusedLines == 0 && report.refusals.isEmpty)
            let totp = TOTP(secret: try #require(Base32.decode(Self.seed)))

            // A wrong password fails the login (at its end: a round never says which element
            // was wrong), and the imported hash stays.
            let wrong = try await Self.logIn(api, "bcrypt@example.com", "U*U*", totp)
            #expect(wrong.1 == 401, "\(wrong)")
            #expect(try await api.services.store.user(email: "bcrypt@example.com")?.passwordHash == Self.bcrypt.hash)

            for (email, password, stored) in [
                ("bcrypt@example.com", Self.bcrypt.password, Self.bcrypt.hash),
                ("argon@example.com", Self.argon2id.password, Self.argon2id.hash),
            ] {
                api.clock.advance(by: 31)
                #expect(try await Self.logIn(api, email, password, totp) == (200, 200))
                let replaced = try #require(try await api.services.store.user(email: email)?.passwordHash)
                #expect(replaced != stored && replaced.hasPrefix("$scrypt$"))
                api.clock.advance(by: 31)
                #expect(try await Self.logIn(api, email, password, totp) == (200, 200))
            }
            let created = try await api.services.store.auditEntries(after: 0, limit: 100).filter { $0.draft.event == "admin.user_created" }
            #expect(created.count == 2 && created.allSatisfy { $0.draft.details["source"] == "import" })
            #expect(created[0].draft.details["methods"] == "password,totp,email_otp")
        }
    }

    @Test("a Keycloak PBKDF2-SHA256 credential imports and signs in")
    func keycloakCredential() async throws {
        let server = try await TestServer()
        // A credential as Keycloak wrote it (27500 iterations, a 16-byte salt, a 32-byte key),
        // for the password "password".
        let salt = "P5rtFkGtPfoaryJ6PizUJw=="
        let value = "JsfNbCOIdZUbyBJ+BT+VoGI91Ec2rWLOvkLPDaX8e9k="
        let path = try Self.write([
            #"{"email": "kc@example.com", "totpSeed": "\#(Self.seed)", "keycloakCredential": {"algorithm": "pbkdf2-sha256", "hashIterations": 27500, "salt": "\#(salt)", "value": "\#(value)"}}"#,
        ], in: server.directory)
        try await server.run { api in
            #expect(try await api.services.users.importUsers(fromFile: path).imported == 1)
            let totp = TOTP(secret: try #require(Base32.decode(Self.seed)))
            #expect(try await Self.logIn(api, "kc@example.com", "password", totp) == (200, 200))
            #expect(try await api.services.store.user(email: "kc@example.com")?.passwordHash?.hasPrefix("$scrypt$") == true)
        }
    }

    @Test("bad lines are reported with their numbers, and nothing is imported")
    func badLinesImportNothing() async throws {
        let server = try await TestServer()
        try await server.run { api in
            _ = try await api.createUser("taken@example.com")
            let path = try Self.write([
                #"{"email": "ok@example.com", "passwordHash": "\#(Self.bcrypt.hash)"}"#,
                "",
                #"{"email": "ok@example.com"}"#,
                #"{"email": "typo@example.com", "password_hash": "x"}"#,
                #"{"email": "weak@example.com", "passwordHash": "$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"}"#,
                #"{"email": "taken@example.com"}"#,
                #"{"email": "seed@example.com", "totpSeed": "not base32!"}"#,
                #"{"email": "not an address"}"#,
                "not json",
                #"{"email": "both@example.com", "passwordHash": "\#(Self.bcrypt.hash)", "keycloakCredential": {}}"#,
            ], in: server.directory)
            let report = try await api.services.users.importUsers(fromFile: path)
            #expect(report.imported == 0)
            #expect(report.lines == 9)
            #expect(report.refusals.map(\.line) == [3, 4, 5, 6, 7, 8, 9, 10])
            #expect(report.refusals[0].reason == "the same e-mail as line 1")
            #expect(report.refusals[1].reason.hasPrefix("unknown key \"password_hash\""))
            #expect(report.refusals[3].reason == "a user with this e-mail exists")
            // No refusal repeats a hash or a seed.
            #expect(report.refusals.allSatisfy { !$0.reason.contains("CCCCCCCC") && !$0.reason.contains("not base32") })
            #expect(try await api.services.store.user(email: "ok@example.com") == nil)
        }
    }
}
