import Foundation
import Logging
import SCACore
import SCAEngine
import SCAServer
import SCAStoragePostgres
import SCATestSupport
import Testing

/// Two instances on one PostgreSQL schema, each with its own pool and its own signer, on one
/// test clock: a key rotated on one is read by the other at its next periodic read, and both
/// switch to it at its activation, the same instant, without reading again.
@Suite(
    "Signing-key rotation across two instances on PostgreSQL", .serialized,
    .enabled(if: ServerPair.databaseURL != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct MultiInstanceKeyRotationTests {
    @Test("a key rotated on one instance is published by both within one read, and both sign with it from its activation on")
    func bothInstancesSwitchAtActivation() async throws {
        try await ServerPair.withSchema { databaseURL, _ in
            let serverKey = ServerPair.newServerKey()
            let clock = TestClock()
            let first = try await PostgresStore.connect(url: databaseURL, logger: Logger(label: "sca-server"))
            let second = try await PostgresStore.connect(url: databaseURL, logger: Logger(label: "sca-server"))
            try await ServerDatabase(store: first, services: [first]).withRunning { storeA in
                try await ServerDatabase(store: second, services: [second]).withRunning { storeB in
                    let a = try await TestServer(store: storeA, clock: clock) { $0.serverKey = serverKey }
                    let b = try await TestServer(store: storeB, clock: clock) { $0.serverKey = serverKey }
                    try await a.run { apiA in
                        try await b.run { apiB in
                            try await Self.rotate(on: apiA, readBy: apiB, clock: clock)
                        }
                    }
                }
            }
        }
    }

    /// Logs a user in on `api`: the kid of its token, and the token.
    static func logIn(_ api: APIClient, _ email: String, _ totp: TOTP) async throws -> (kid: String, token: String) {
        let token = try await SigningKeyRotationTests.logIn(api, email, totp)
        return (try SigningKeyRotationTests.keyID(of: token), token)
    }

    static func rotate(on a: APIClient, readBy b: APIClient, clock: TestClock) async throws {
        // One user per instance, so that their TOTP steps are burnt apart.
        let totpA = try await a.enrollTOTP(try await a.createUser("on-a@example.com"))
        let totpB = try await a.enrollTOTP(try await a.createUser("on-b@example.com"))
        let old = try await logIn(a, "on-a@example.com", totpA).kid
        #expect(try await logIn(b, "on-b@example.com", totpB).kid == old, "both instances adopted the first key")

        let next = try await a.services.signingKeys.rotate()
        #expect(try await SigningKeyRotationTests.publishedKeyIDs(a) == [next.keyID, old])
        // The other instance's periodic read, at most one interval later.
        clock.advance(by: 30)
        try await b.services.signingKeys.refresh()
        #expect(try await SigningKeyRotationTests.publishedKeyIDs(b) == [next.keyID, old])

        // No further read: the clock alone switches both.
        clock.advance(by: next.activatesAt.timeIntervalSince(clock.now()) - 1)
        #expect(try await logIn(a, "on-a@example.com", totpA).kid == old)
        #expect(try await logIn(b, "on-b@example.com", totpB).kid == old)
        clock.advance(by: 1)
        let fromA = try await logIn(a, "on-a@example.com", totpA)
        let fromB = try await logIn(b, "on-b@example.com", totpB)
        #expect(fromA.kid == next.keyID && fromB.kid == next.keyID)
        // Each accepts the other's token.
        #expect(try await b.introspect(fromA.token).active)
        #expect(try await a.introspect(fromB.token).active)
    }
}
