import Foundation
import SCACore
import SCAStorageSQLite
import Synchronization
import Testing

/// Issue 14: a proof is one write transaction in the store (the claim, the attempt, the burnt
/// signature, the device, the session, the audit entries together), counted on a real server
/// over a real SQLite file by tracing the statements the store runs.
@Suite("Proof transactions")
struct ProofTransactionTests {
    @Test("device-signed cold start: opening the challenge and each proof are one write transaction and one read; no passkeys read")
    func coldStartTransactions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-txn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StatementLog()
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path) { log.append($0) }
        try await TestServer(store: store).run { api in
            let userID = try await api.createUser("txn@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            log.reset()
            let created = try await api.startChallenge(.login, userID: userID, device: device)
            #expect(created.status == 201)
            let challenge = try created.decode(ChallengeResponse.self)
            let creation = log.reset()
            #expect(!creation.statements.contains { $0.contains("FROM passkeys") }, "the user row says whether to offer one")
            #expect(creation.writes == 1, "the challenge and its audit entry: one commit")
            #expect(creation.reads == 1, "the user and the device together")

            let partial = try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge))
            #expect(try partial.decode(ProofResponse.self).status == .partial)
            let first = log.reset()
            #expect(first.writes == 1, "claim, attempt, burn, device, audit entry: one commit")
            #expect(first.reads == 1, "the challenge, its user and its device together")

            let complete = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
            #expect(try complete.decode(ProofResponse.self).status == .complete)
            let second = log.reset()
            #expect(second.writes == 1, "and the completion with its session and three audit entries")
            #expect(second.reads == 1, "the tokens' claims come from the user read with the challenge")
            print("proof transactions: creation \(creation.writes) writes \(creation.reads) reads \(creation.statements.count) statements; proofs \(first.writes)+\(second.writes) writes, \(first.reads)+\(second.reads) reads, \(first.statements.count)+\(second.statements.count) statements")

            let entries = try await api.services.store.auditEntries(after: 0, limit: 100).map(\.draft.event)
            #expect(Array(entries.suffix(5)) == ["challenge.created", "proof.accepted", "proof.accepted", "token.issued", "challenge.completed"])
        }
    }
}

extension ProofTransactionTests {
    /// A knowledge proof is reserved before it is evaluated (its attempt counted, the challenge
    /// claimed), so a guess is never checked unless its attempt is counted and of many parallel
    /// proofs on one challenge one is checked: that reservation is a write of its own, before
    /// the proof's commit. Judging a password first would save it and lose that guarantee.
    @Test("a password proof: opening the challenge is one write and one read; the proof is its reservation and its commit")
    func passwordProofTransactions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-txn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StatementLog()
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path) { log.append($0) }
        try await TestServer(store: store).run { api in
            _ = try await api.createUser("knows@example.com")
            log.reset()
            let challenge = try await api.startChallenge(email: "knows@example.com")
            let creation = log.reset()
            #expect(creation.writes == 1, "the challenge and its audit entry: one commit")
            #expect(creation.reads == 1, "the user by e-mail")

            let proof = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(try proof.decode(ProofResponse.self).status == .partial)
            let counts = log.reset()
            #expect(counts.writes == 2, "the claim with its reserved attempt, then the judged proof with its audit entry")
            #expect(counts.reads == 1, "the challenge and its user together")
            print("password proof: creation \(creation.writes) writes \(creation.reads) reads \(creation.statements.count) statements; proof \(counts.writes) writes \(counts.reads) reads \(counts.statements.count) statements")
        }
    }
}

/// The statements a store ran since the last `reset`.
private final class StatementLog: Sendable {
    struct Counts {
        var statements: [String]
        /// Write transactions (GRDB opens them `BEGIN IMMEDIATE`).
        var writes: Int { statements.filter { $0.hasPrefix("BEGIN IMMEDIATE") }.count }
        /// Read transactions (a pool's snapshot reads).
        var reads: Int { statements.filter { $0.hasPrefix("BEGIN DEFERRED") }.count }
    }

    private let statements = Mutex<[String]>([])

    func append(_ statement: String) {
        statements.withLock { $0.append(statement) }
    }

    @discardableResult
    func reset() -> Counts {
        Counts(statements: statements.withLock { statements in
            defer { statements = [] }
            return statements
        })
    }
}
