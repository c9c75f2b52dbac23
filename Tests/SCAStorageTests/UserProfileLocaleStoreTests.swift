import Foundation
import GRDB
import SCACore
import SCAStorage
@testable import SCAStorageSQLite
import SCAStoragePostgres
import Testing

/// A profile's `locale` and `zoneinfo` live in the profile's JSON column, added without a
/// migration: rows written before them must read with both nil, in both backends, and the new
/// fields must round-trip and take part in the profile's compare-and-set.
enum UserProfileLocaleCheck {
    /// A profile as the server wrote it before `locale` and `zoneinfo` existed.
    static let oldProfileText = #"{"attributes":{"tier":"gold"},"name":"Ada"}"#

    /// `rewrite` stands in for the rows of an older server: it sets `profile_json` of user
    /// `u1` to the given text behind the store's back.
    static func check(_ store: any SCAStore, rewrite: (String) async throws -> Void) async throws {
        let t0 = StoreConformance.t0
        try await store.createUser(UserRecord(id: "u1", email: "ada@example.com", createdAt: t0))
        try await rewrite(oldProfileText)
        let old = try #require(try await store.user(id: "u1"))
        #expect(old.profile == UserProfile(name: "Ada", attributes: ["tier": "gold"]))
        #expect(old.profile.locale == nil && old.profile.zoneinfo == nil)

        // Set on top of the old row, by compare-and-set on the profile as read.
        var chosen = old.profile
        chosen.locale = "de"
        chosen.zoneinfo = "Europe/Berlin"
        try await store.updateUser(id: "u1", UserUpdate(profile: chosen, precondition: .profile(old.profile)))
        #expect(try await store.user(id: "u1")?.profile == chosen)
        // A writer that read the profile before the change loses, and changes nothing.
        await #expect(throws: StoreError.conflict(UserPrecondition.conflictField)) {
            try await store.updateUser(id: "u1", UserUpdate(profile: UserProfile(), precondition: .profile(old.profile)))
        }
        #expect(try await store.user(id: "u1")?.profile == chosen)

        // Created with them, as a sign-up does.
        let created = UserRecord(
            id: "u2", email: "bea@example.com", createdAt: t0, profile: UserProfile(locale: "fr", zoneinfo: "Europe/Paris"))
        try await store.createUser(created)
        #expect(try await store.user(id: "u2")?.profile == created.profile)

        // Cleared again: stored as a profile that never had them.
        try await store.updateUser(id: "u1", UserUpdate(profile: UserProfile(name: "Ada", attributes: ["tier": "gold"])))
        #expect(try await store.user(id: "u1")?.profile == UserProfile(name: "Ada", attributes: ["tier": "gold"]))
    }
}

@Suite("User profile language and zone: SQLite")
struct SQLiteUserProfileLocaleTests {
    @Test func oldRowsReadWithoutLanguageAndNewOnesRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("sca.sqlite").path)
            try await UserProfileLocaleCheck.check(store) { text in
                try await store.writer.write { db in
                    try db.execute(sql: "UPDATE users SET profile_json = ? WHERE id = 'u1'", arguments: [text])
                }
            }
        }
    }
}

@Suite(
    "User profile language and zone: PostgreSQL", .serialized,
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct PostgresUserProfileLocaleTests {
    @Test func oldRowsReadWithoutLanguageAndNewOnesRoundTrip() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            let store = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            try await store.withRunning { store in
                try await UserProfileLocaleCheck.check(store) { text in
                    // The text is a constant of this test, with no quote in it.
                    try await PostgresTestDatabase.execute("UPDATE users SET profile_json = '\(text)' WHERE id = 'u1'", url: url)
                }
            }
        }
    }
}
