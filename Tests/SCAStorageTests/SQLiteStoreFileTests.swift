import Foundation
import GRDB
import SCACore
import SCAStorage
@testable import SCAStorageSQLite
import Testing

/// What only the SQLite backend promises: its file, its journal mode, its schema history.
@Suite("SQLiteStore file")
struct SQLiteStoreFileTests {
    @Test func createsMissingParentDirectories() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("a/b/c/sca.sqlite").path
            let store = try SQLiteStore(path: path)
            try await store.checkHealth()
            #expect(FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func runsInWALMode() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path)
            let mode = try await store.writer.read { db in
                try String.fetchOne(db, sql: "PRAGMA journal_mode")
            }
            #expect(mode == "wal")
        }
    }

    @Test func dataSurvivesReopeningAndMigrationsAreIdempotent() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            let user = UserRecord(id: "u1", email: "alice@example.com", roles: ["user"], createdAt: StoreConformance.t0)
            let key = SigningKeyRecord(keyID: "k1", algorithm: "ES256", sealedPrivateKey: [1], createdAt: StoreConformance.t0)
            do {
                let store = try SQLiteStore(path: path)
                try await store.createUser(user)
                _ = try await store.addSigningKeyIfNone(key)
                #expect(try await store.acceptTOTPStep(userID: "u1", step: 7))
            }
            for _ in 0..<2 {
                let reopened = try SQLiteStore(path: path)
                var expected = user
                expected.lockout.lastTOTPStep = 7
                #expect(try await reopened.user(id: "u1") == expected)
                #expect(try await reopened.signingKeys() == [key])
                #expect(try await reopened.acceptTOTPStep(userID: "u1", step: 7) == false)
                let applied = try await reopened.writer.read { db in
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
                }
                #expect(applied == SQLiteStore.migrationIDs)
            }
        }
    }

    @Test func migrationIDsNameSchemaSteps() {
        #expect(
            SQLiteStore.migrationIDs == [
                "v1-users", "v1-challenges", "v1-one-time-codes", "v1-sessions", "v1-refresh-tokens",
                "v1-consumed-tokens", "v1-signing-keys", "v1-devices", "v1-activation-codes", "v1-used-signatures",
                "v1-audit", "v2-rate-limits", "v2-unknown-address-lockout", "v3-unknown-address-columns",
                "v3-admin-keys", "v3-risk", "v3-partners", "v3-passkeys", "v3-operations",
                "v3-passkey-proofs", "v3-signup", "v3-partner-webhooks", "v3-proof-path", "v3-webhook-events", "v3-signup-phone",
                "v3-audit-append",
                "v3-proof-fold", "v3-challenge-signatures", "v4-delegated-tokens", "v4-risk-aggregates",
                "v5-client-keys", "v6-partner-requests", "v7-partner-notifications", "v8-signing-key-activation",
                "v9-console-lookups",
                "v10-recovery-sheets", "v11-console-reports", "v12-password-reset", "v13-partner-health",
                "v14-audit-lifecycle", "v15-one-proof-function", "v16-risk-aggregate-function",
            ]
        )
    }

    /// Two stores on one file stand for two server instances: the allowance is still granted once.
    @Test func twoStoresOnOneFileShareTheAllowance() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            let first = try SQLiteStore(path: path)
            let second = try SQLiteStore(path: path)
            try await first.createUser(UserRecord(id: "u1", email: "a@example.com", createdAt: StoreConformance.t0))
            let policy = LockoutPolicy()
            let results = try await withThrowingTaskGroup(of: AttemptReservation.self) { group in
                for index in 0..<40 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await store.reserveAttempt(userID: "u1", policy: policy, now: StoreConformance.t0) }
                }
                var results: [AttemptReservation] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(results.filter { $0 != .saturated }.count == 5)
        }
    }

    /// Rate budgets (v2-rate-limits): two stores on one file share a budget, and uses that
    /// have left their window are deleted on the way.
    @Test func twoStoresOnOneFileShareRateBudgets() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            let first = try SQLiteStore(path: path)
            let second = try SQLiteStore(path: path)
            let budget = RateBudget(key: "send.destination.600:abc", scope: "destination", limit: 5, window: 600)
            let results = try await withThrowingTaskGroup(of: RateDecision.self) { group in
                for index in 0..<30 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await store.consumeRateBudgets([budget], now: StoreConformance.t0) }
                }
                return try await group.reduce(into: [RateDecision]()) { $0.append($1) }
            }
            #expect(results.filter { $0 == .granted }.count == 5)
            let rows = { try await first.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rate_events") } }
            #expect(try await rows() == 5)
            #expect(try await second.consumeRateBudgets([budget], now: StoreConformance.t0 + 600) == .granted)
            #expect(try await rows() == 1, "the five expired uses were deleted")
        }
    }

    /// The cleanup on the way is bounded: one consume deletes at most
    /// `RateBudget.expiredUsesToDelete` expired uses, and later consumes take the rest.
    @Test func expiredRateUsesAreDeletedInBoundedBatches() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path)
            let rows = { try await store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rate_events") } }
            try await StoreConformance.checkBoundedRateCleanup(store, rows: rows)
        }
    }

    @Test func corruptRowThrowsInsteadOfCrashing() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path)
            try await store.insertChallenge(
                ChallengeRecord(
                    id: "c1", userID: nil, operation: .login, verdict: .immediate, requiredCategories: 2,
                    methods: [.password], nonce: "n", createdAt: StoreConformance.t0, expiresAt: StoreConformance.t0 + 60
                )
            )
            try await store.writer.write { db in
                try db.execute(sql: "UPDATE challenges SET operation = 'teleport', methods = '[\"carrier_pigeon\"]'")
            }
            await #expect(throws: SQLiteStoreError(column: "operation", reason: "holds 'teleport', which is not a \(OperationKind.self)")) {
                try await store.challenge(id: "c1")
            }
            try await store.writer.write { db in
                try db.execute(sql: "UPDATE challenges SET operation = 'login', methods = '[]', created_at = 'yesterday'")
            }
            await #expect(throws: (any Error).self) {
                try await store.challenge(id: "c1")
            }
        }
    }

    @Test func inMemoryStoreWorks() async throws {
        let store = try SQLiteStore.inMemory()
        try await StoreConformance(store: store).userRoundTrip()
    }
}
