import Foundation
import GRDB
import SCACore
import SCAStorageSQLite
import Synchronization
import Testing

/// A proof is one write transaction in the store (the claim, the attempt, the burnt
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

extension ProofTransactionTests {
    /// A code proof keeps its reservation first (one proof at a time, the attempt counted before
    /// the code is checked) but no longer uses its code in a write of its own: the code is read,
    /// judged, and used by the proof's commit only if still unused (three writes before: the
    /// claim, the code's use, the commit).
    @Test("an e-mail code proof is its reservation and its commit, which uses the code")
    func emailCodeProofTransactions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-txn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StatementLog()
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path) { log.append($0) }
        try await TestServer(store: store).run { api in
            let userID = try await api.createUser("mail@example.com", emailCodes: true)
            let challenge = try await api.startChallenge(email: "mail@example.com")
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            let code = try api.lastCode(sentTo: "mail@example.com")
            log.reset()

            let proof = try await api.prove(challenge.challengeId, .emailOTP, code)
            #expect(try proof.decode(ProofResponse.self).status == .partial)
            let counts = log.reset()
            #expect(counts.writes == 2, "the claim with its reserved attempt, then the judged proof with the code's use and its audit entry")
            #expect(counts.reads == 2, "the challenge with its user, then the code")
            #expect(counts.statements.contains { $0.contains("UPDATE one_time_codes SET used = 1") })
            print("e-mail code proof: \(counts.writes) writes \(counts.reads) reads \(counts.statements.count) statements")

            #expect(try await api.services.store.oneTimeCode(challengeID: challenge.challengeId, method: .emailOTP)?.used == true)
            let done = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(try done.decode(ProofResponse.self).status == .complete)
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 0)
        }
    }

    @Test("a TOTP proof is its reservation and its commit, which burns the step")
    func totpProofTransactions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-txn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StatementLog()
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path) { log.append($0) }
        try await TestServer(store: store).run { api in
            let userID = try await api.createUser("steps@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(email: "steps@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            log.reset()

            let code = totp.code(at: api.clock.now())
            let proof = try await api.prove(challenge.challengeId, .totp, code)
            #expect(try proof.decode(ProofResponse.self).status == .complete)
            let counts = log.reset()
            #expect(counts.writes == 2, "the claim, then the completion with the step's burn, the session and the audit entries")
            #expect(counts.reads == 1, "the step last accepted comes with the user")
            print("TOTP proof: \(counts.writes) writes \(counts.reads) reads \(counts.statements.count) statements")
            #expect(try await api.services.store.user(id: userID)?.lockout.lastTOTPStep != nil)

            let again = try await api.startChallenge(email: "steps@example.com")
            #expect(try await api.prove(again.challengeId, .password, "correct horse battery").status == 200)
            let replay = try await api.prove(again.challengeId, .totp, code)
            #expect(replay.problem?.code == .codeAlreadyUsed, "the step was burnt by the commit")
        }
    }

    /// The code is used by someone else between the proof's read and its commit (here by another
    /// connection to the file, just before the commit begins): the commit applies nothing, and
    /// the proof is judged again on the code as it now is: a replay, refused and not counted.
    @Test("a code used between the proof's read and its commit: nothing of the commit applied, answered as a replay")
    func codeUsedBeforeTheCommit() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-txn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sca.sqlite").path
        let race = CodeRace(path: path)
        let store = try SQLiteStore(path: path) { race.observe($0) }
        try await TestServer(store: store).run { api in
            let userID = try await api.createUser("race@example.com", emailCodes: true)
            let challenge = try await api.startChallenge(email: "race@example.com")
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            let code = try api.lastCode(sentTo: "race@example.com")
            let before = try await api.services.store.auditEntries(after: 0, limit: 1000).count
            race.arm()

            let proof = try await api.prove(challenge.challengeId, .emailOTP, code)
            #expect(race.fired, "the code was used between the read and the commit")
            #expect(proof.status == 409)
            #expect(proof.problem?.code == .codeAlreadyUsed)
            #expect(try await api.services.store.user(id: userID)?.lockout.failedAttempts == 0, "not counted")
            let stored = try #require(try await api.services.store.challenge(id: challenge.challengeId))
            #expect(stored.state == .pending && stored.acceptedMethods.isEmpty && stored.pendingMethod == nil, "nothing collected, claim released")
            let entries = try await api.services.store.auditEntries(after: 0, limit: 1000).dropFirst(before)
            #expect(entries.map(\.draft.event) == ["proof.rejected"])
            #expect(entries.first?.draft.outcome == "replayed")
        }
    }
}

/// Uses the challenge's code from another connection when the proof's commit is about to begin
/// (the first write transaction after the code was read), once armed.
private final class CodeRace: Sendable {
    private struct State {
        var armed = false
        var read = false
        var fired = false
    }

    private let path: String
    private let state = Mutex(State())

    init(path: String) {
        self.path = path
    }

    func arm() {
        state.withLock { $0.armed = true }
    }

    var fired: Bool { state.withLock { $0.fired } }

    func observe(_ statement: String) {
        let fire = state.withLock { state -> Bool in
            guard state.armed, !state.fired else { return false }
            if statement.contains("FROM one_time_codes") { state.read = true }
            guard state.read, statement.hasPrefix("BEGIN IMMEDIATE") else { return false }
            state.fired = true
            return true
        }
        guard fire else { return }
        // Traced before the statement runs, so the proof's writer holds no lock yet.
        do {
            let other = try DatabaseQueue(path: path)
            try other.write { db in try db.execute(sql: "UPDATE one_time_codes SET used = 1") }
            try other.close()
        } catch {
            Issue.record("the racing use failed: \(error)")
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

extension ProofTransactionTests {
    /// v3-challenge-signatures: a device proof's burn is part of the challenge's own
    /// write, so the proof touches no other table for it, and nothing is left for the periodic
    /// sweep (``SCAServices/signatureSweep``) to forget: the burns go with their challenge.
    @Test("a device proof keeps its signature's burn on the challenge it signs: no other table, nothing to sweep")
    func signatureBurnsStayWithTheirChallenge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-txn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StatementLog()
        let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path) { log.append($0) }
        try await TestServer(store: store).run { api in
            let userID = try await api.createUser("sweep@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            log.reset()
            #expect(try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge)).status == 200)
            let burn = log.reset()
            #expect(!burn.statements.contains { $0.contains("used_signatures") }, "\(burn.statements)")
            #expect(burn.statements.contains { $0.contains("UPDATE challenges") })
            #expect(try await store.challenge(id: challenge.challengeId)?.usedSignatures.count == 1)
            let done = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
            #expect(try done.decode(ProofResponse.self).status == .complete)
            #expect(try await store.challenge(id: challenge.challengeId)?.usedSignatures.count == 2)

            api.clock.advance(by: 24 * 3600)
            #expect(try await api.services.forgetExpiredSignatures() == 0, "nothing of the device proofs in the swept table")
        }
    }
}
