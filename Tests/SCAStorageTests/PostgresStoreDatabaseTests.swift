import Foundation
import PostgresNIO
import SCACore
import SCAStorage
import SCAStoragePostgres
import Testing

/// What only the PostgreSQL backend promises: its schema history, migrations that run once
/// when instances start together, and once-only checks that hold across stores (two stores
/// on one schema stand for two server instances on one database).
@Suite(
    "PostgresStore database", .serialized,
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct PostgresStoreDatabaseTests {
    let t0 = StoreConformance.t0

    /// Two stores on one fresh schema, their pools running while `body` runs.
    private func withTwoStores(_ body: (PostgresStore, PostgresStore, String) async throws -> Void) async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            async let first = PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            async let second = PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            let stores = try await (first, second)
            try await stores.0.withRunning { first in
                try await stores.1.withRunning { second in try await body(first, second, url) }
            }
        }
    }

    private func appliedMigrations(_ url: String) async throws -> [String] {
        try await PostgresTestDatabase.execute("SELECT id FROM schema_migrations ORDER BY position", url: url)
            .map { try $0.decode(String.self) }
    }

    @Test func twoStoresConnectingAtOnceMigrateOnce() async throws {
        try await withTwoStores { first, second, url in
            #expect(try await appliedMigrations(url) == PostgresStore.migrationIDs)
            // Both work on the one schema.
            try await first.createUser(UserRecord(id: "u1", email: "a@example.com", createdAt: t0))
            #expect(try await second.user(id: "u1")?.email == "a@example.com")
        }
    }

    @Test func dataSurvivesReconnectingAndMigrationsAreIdempotent() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            let user = UserRecord(id: "u1", email: "alice@example.com", roles: ["user"], createdAt: t0)
            let key = SigningKeyRecord(keyID: "k1", algorithm: "ES256", sealedPrivateKey: [1], createdAt: t0)
            let store = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            try await store.withRunning { store in
                try await store.createUser(user)
                _ = try await store.addSigningKeyIfNone(key)
                #expect(try await store.acceptTOTPStep(userID: "u1", step: 7))
            }

            for _ in 0..<2 {
                let reopened = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
                try await reopened.withRunning { (reopened: PostgresStore) async throws in
                    var expected = user
                    expected.lockout.lastTOTPStep = 7
                    #expect(try await reopened.user(id: "u1") == expected)
                    #expect(try await reopened.signingKeys() == [key])
                    #expect(try await reopened.acceptTOTPStep(userID: "u1", step: 7) == false)
                }
                #expect(try await appliedMigrations(url) == PostgresStore.migrationIDs)
            }
        }
    }

    /// The allowance, a TOTP step, a challenge completion, a refresh token, a consumed token
    /// and a device signature, each raced over two stores: once is once across instances.
    @Test func onceOnlyChecksHoldAcrossStores() async throws {
        try await withTwoStores { first, second, _ in
            try await first.createUser(UserRecord(id: "u1", email: "a@example.com", createdAt: t0))
            let stores = [first, second]
            func race<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (PostgresStore) async throws -> T) async throws -> [T] {
                try await withThrowingTaskGroup(of: T.self) { group in
                    for index in 0..<count {
                        let store = stores[index % 2]
                        group.addTask { try await body(store) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let t0 = self.t0

            let reservations = try await race(40) { try await $0.reserveAttempt(userID: "u1", policy: LockoutPolicy(), now: t0) }
            #expect(reservations.filter { $0 != .saturated }.count == 5)

            let steps = try await race(20) { try await $0.acceptTOTPStep(userID: "u1", step: 99) }
            #expect(steps.filter { $0 }.count == 1)

            let challenge = ChallengeRecord(
                id: "c1", userID: "u1", operation: .login, verdict: .immediate, requiredCategories: 2,
                methods: [.password, .totp], nonce: "n", createdAt: t0, expiresAt: t0 + 300)
            try await first.insertChallenge(challenge)
            var completed = challenge
            completed.state = .completed
            let update = completed
            let updates = try await race(20) { try await $0.updateChallenge(update, expectedVersion: 0) }
            #expect(updates.filter { $0 }.count == 1)

            try await second.createSession(
                SessionRecord(id: "s1", userID: "u1", operation: .login, challengeID: "c1", createdAt: t0, lastUsedAt: t0),
                refreshToken: RefreshTokenRecord(tokenHash: [1], sessionID: "s1", issuedAt: t0, expiresAt: t0 + 3600))
            let rotations = try await race(10) {
                try await $0.rotateRefreshToken(
                    presentedHash: [1], replacementHash: [2, UInt8.random(in: 0...255), UInt8.random(in: 0...255)],
                    replacementExpiresAt: t0 + 3600, now: t0 + 1, idleTimeout: 300)
            }
            #expect(rotations.filter { if case .rotated = $0 { true } else { false } }.count == 1)
            #expect(rotations.filter { $0 == .reuseDetected(sessionID: "s1") }.count == 9)

            let consumed = try await race(20) { try await $0.consumeToken(id: "jti", expiresAt: t0 + 60, now: t0) }
            #expect(consumed.filter { $0 }.count == 1)

            let signatures = try await race(20) { try await $0.markSignatureUsed([7], expiresAt: t0 + 60, now: t0) }
            #expect(signatures.filter { $0 }.count == 1)

            let keys = try await race(10) { store in
                try await store.addSigningKeyIfNone(
                    SigningKeyRecord(keyID: UUID().uuidString, algorithm: "ES256", sealedPrivateKey: [1], createdAt: t0))
            }
            #expect(Set(keys.map(\.keyID)).count == 1, "instances starting together agree on one key")
            #expect(try await first.signingKeys().count == 1)
        }
    }

    /// Two codes of one user, registered at once on two stores, with room for one device.
    @Test func deviceLimitHoldsAcrossStores() async throws {
        try await withTwoStores { first, second, _ in
            try await first.createUser(UserRecord(id: "u1", email: "a@example.com", createdAt: t0))
            let t0 = self.t0
            for lookupID in ["AAAAA", "BBBBB"] {
                try await first.createActivationCode(
                    ActivationCodeRecord(lookupID: lookupID, codeHash: [1], userID: "u1", createdAt: t0, expiresAt: t0 + 600),
                    maximumTries: 3)
            }
            func device(_ id: String) -> DeviceRecord {
                DeviceRecord(id: id, userID: "u1", name: id, platform: "ios", possessionKey: [4], createdAt: t0)
            }
            async let a = first.registerDevice(
                device("d1"), lookupID: "AAAAA", codeHash: [1], now: t0 + 1, maximumTries: 3, maximumDevices: 1)
            async let b = second.registerDevice(
                device("d2"), lookupID: "BBBBB", codeHash: [1], now: t0 + 1, maximumTries: 3, maximumDevices: 1)
            let results = try await [a, b]
            #expect(results.filter { if case .registered = $0 { true } else { false } }.count == 1)
            #expect(results.filter { $0 == .deviceLimitReached }.count == 1)
            #expect(try await second.devices(userID: "u1").count == 1)
        }
    }

    /// Rate budgets (v2-rate-limits): consumers on two instances share one budget, and uses
    /// that have left their window are deleted on the way.
    @Test func rateBudgetsHoldAcrossStores() async throws {
        try await withTwoStores { first, second, url in
            let t0 = self.t0
            let budget = RateBudget(key: "send.destination.600:abc", scope: "destination", limit: 5, window: 600)
            let results = try await withThrowingTaskGroup(of: RateDecision.self) { group in
                for index in 0..<30 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await store.consumeRateBudgets([budget], now: t0) }
                }
                return try await group.reduce(into: [RateDecision]()) { $0.append($1) }
            }
            #expect(results.filter { $0 == .granted }.count == 5)
            let rows = { try await PostgresTestDatabase.execute("SELECT count(*) FROM rate_events", url: url).first?.decode(Int.self) }
            #expect(try await rows() == 5)
            #expect(try await second.consumeRateBudgets([budget], now: t0 + 600) == .granted)
            #expect(try await rows() == 1, "the five expired uses were deleted")
        }
    }

    /// The cleanup on the way is bounded: one consume deletes at most
    /// `RateBudget.expiredUsesToDelete` expired uses, and later consumes take the rest.
    @Test func expiredRateUsesAreDeletedInBoundedBatches() async throws {
        try await withTwoStores { store, _, url in
            let rows = { try await PostgresTestDatabase.execute("SELECT count(*) FROM rate_events", url: url).first?.decode(Int.self) }
            try await StoreConformance.checkBoundedRateCleanup(store, rows: rows)
        }
    }

    @Test func corruptRowThrowsInsteadOfCrashing() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            let store = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            try await store.withRunning { store in
                try await store.insertChallenge(
                    ChallengeRecord(
                        id: "c1", userID: nil, operation: .login, verdict: .immediate, requiredCategories: 2,
                        methods: [.password], nonce: "n", createdAt: t0, expiresAt: t0 + 60))
                try await PostgresTestDatabase.execute(
                    "UPDATE challenges SET operation = 'teleport', methods = '[\"carrier_pigeon\"]'", url: url)
                await #expect(
                    throws: PostgresStoreError(
                        column: "operation", reason: "holds 'teleport', which is not a \(OperationKind.self)")
                ) {
                    try await store.challenge(id: "c1")
                }
                try await PostgresTestDatabase.execute(
                    "UPDATE challenges SET operation = 'login', methods = 'not json'", url: url)
                await #expect(throws: PostgresStoreError.self) {
                    try await store.challenge(id: "c1")
                }
            }
        }
    }

    @Test func missingDatabaseOrSchemaIsReported() async throws {
        let url = try #require(PostgresTestDatabase.url)
        var components = try #require(URLComponents(string: url))
        components.path = "/sca_no_such_database"
        var wrong = try #require(components.string)
        let missingDatabase = await #expect(throws: PostgresStoreError.self) {
            _ = try await PostgresStore.connect(url: wrong, logger: PostgresTestDatabase.logger)
        }
        #expect(missingDatabase.map { "\($0)" }?.contains("does not exist") == true)

        wrong = PostgresTestDatabase.url(url, searchPath: "sca_no_such_schema")
        let missingSchema = await #expect(throws: PostgresStoreError.self) {
            _ = try await PostgresStore.connect(url: wrong, logger: PostgresTestDatabase.logger)
        }
        #expect(missingSchema.map { "\($0)" }?.contains("schema step") == true)
    }
}
