import Foundation
import JWTKit
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Testing

/// Token-signing key rotation through the real routes, on the test clock: the next key is
/// published before it signs, every token after its activation names it, the key before stays
/// published while its tokens may be valid and then leaves the JWKS, and audit checkpoints it
/// signed still verify.
@Suite("Signing-key rotation")
struct SigningKeyRotationTests {
    /// The `kid` of a compact JWS's header.
    static func keyID(of token: String) throws -> String {
        let header = try #require(token.split(separator: ".").first.flatMap { Base64URL.decode(String($0)) })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])
        return try #require(fields["kid"] as? String)
    }

    /// The key ids `GET /.well-known/jwks.json` publishes, in its order.
    static func publishedKeyIDs(_ api: APIClient) async throws -> [String] {
        let keys = try #require(try await api.send(.get, "/.well-known/jwks.json").json["keys"] as? [[String: Any]])
        return keys.compactMap { $0["kid"] as? String }
    }

    /// A token from a full login at the clock's time.
    static func logIn(_ api: APIClient, _ email: String, _ totp: TOTP) async throws -> String {
        try #require(try await api.logIn(email, totp: totp).accessToken)
    }

    @Test("the next key is published an hour before it signs, then signs every token; the key before leaves the JWKS after its tokens' lifetime")
    func nextKeyPublishedFirstThenSigns() async throws {
        try await TestServer().run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("rotate@example.com"))
            let old = try Self.keyID(of: try await Self.logIn(api, "rotate@example.com", totp))
            let jwks = try await api.send(.get, "/.well-known/jwks.json")
            #expect(jwks.headers[.cacheControl] == "public, max-age=\(SigningKeySchedule.jwksMaxAge)")
            #expect(try await Self.publishedKeyIDs(api) == [old])

            let next = try await api.services.signingKeys.rotate()
            #expect(next.activatesAt == api.clock.now().addingTimeInterval(SigningKeySchedule.defaultPrepublication))
            #expect(next.keyID != old)
            // Published at once, before its first token.
            #expect(try await Self.publishedKeyIDs(api) == [next.keyID, old])

            api.clock.advance(by: SigningKeySchedule.defaultPrepublication - 1)
            let lastOfOld = try await Self.logIn(api, "rotate@example.com", totp)
            #expect(try Self.keyID(of: lastOfOld) == old)
            api.clock.advance(by: 1)
            let firstOfNext = try await Self.logIn(api, "rotate@example.com", totp)
            #expect(try Self.keyID(of: firstOfNext) == next.keyID)
            // Both verify meanwhile.
            #expect(try await api.introspect(lastOfOld).active)
            #expect(try await api.introspect(firstOfNext).active)

            // The old key stays published while a token it signed may be valid: the longest
            // lifetime of anything it signs, and a minute of leeway.
            let retention = api.services.signingKeys.schedule.retention
            #expect(retention == SigningKeySchedule.longestFixedLifetime + SigningKeySchedule.clockLeeway)
            api.clock.advance(by: retention - 1)
            #expect(try await Self.publishedKeyIDs(api) == [next.keyID, old])
            api.clock.advance(by: 1)
            #expect(try await Self.publishedKeyIDs(api) == [next.keyID])
            #expect(api.services.signingKeys.list().map(\.status) == [.signing, .retired])
        }
    }

    @Test("a rotation while the next key waits is refused and stores nothing; each rotation is audited as keys.rotated")
    func secondRotationRefusedAndAudited() async throws {
        try await TestServer().run { api in
            let next = try await api.services.signingKeys.rotate()
            let listed = api.services.signingKeys.list()
            #expect(listed.map(\.status) == [.next, .signing])
            await #expect(throws: Problem.self) { try await api.services.signingKeys.rotate() }
            #expect(api.services.signingKeys.list() == listed)
            #expect(try await api.services.store.signingKeys().count == 2)

            api.clock.advance(by: SigningKeySchedule.defaultPrepublication)
            let third = try await api.services.signingKeys.rotate()
            let rotations = try await api.services.store.auditEntries(after: 0, limit: 1_000).filter { $0.draft.event == "keys.rotated" }
            #expect(rotations.map { $0.draft.details["keyId"] } == [next.keyID, third.keyID])
            #expect(rotations.allSatisfy { $0.draft.details["trigger"] == "command" && $0.draft.actor == "cli" })
            #expect(rotations.first?.draft.details["activatesAt"] == ISO8601DateFormatter().string(from: next.activatesAt))
        }
    }

    @Test("with tokenKeys.rotationPeriod the server rotates by itself once the period is due, once")
    func periodicRotation() async throws {
        let server = try await TestServer { $0.tokenKeysRotationPeriod = 7 * 86_400 }
        try await server.run { api in
            let keys = api.services.signingKeys
            try await keys.refresh()
            #expect(keys.list().count == 1)
            // Due when a key rotated now would activate a period after the current one.
            api.clock.advance(by: 7 * 86_400 - SigningKeySchedule.defaultPrepublication - 1)
            try await keys.refresh()
            #expect(keys.list().count == 1)
            api.clock.advance(by: 1)
            try await keys.refresh()
            try await keys.refresh()
            let listed = keys.list()
            #expect(listed.map(\.status) == [.next, .signing])
            #expect(listed.first?.activatesAt == api.clock.now().addingTimeInterval(SigningKeySchedule.defaultPrepublication))
            let rotations = try await api.services.store.auditEntries(after: 0, limit: 1_000).filter { $0.draft.event == "keys.rotated" }
            #expect(rotations.map { $0.draft.details["trigger"] } == ["period"])
        }
    }

    @Test("an audit checkpoint signed by a key that has left the JWKS still verifies")
    func checkpointOfRetiredKeyVerifies() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("audited@example.com")
            let checkpoints = AuditCheckpoints(services: api.services)
            let (taken, jws) = try await checkpoints.take()
            let signedBy = try Self.keyID(of: jws)

            _ = try await api.services.signingKeys.rotate()
            api.clock.advance(by: SigningKeySchedule.defaultPrepublication + api.services.signingKeys.schedule.retention)
            #expect(try await Self.publishedKeyIDs(api).contains(signedBy) == false)
            #expect(try checkpoints.verify(jws) == taken)
            // A new checkpoint is signed by the new key, and verifies too.
            let (_, newer) = try await checkpoints.take()
            #expect(try Self.keyID(of: newer) != signedBy)
            #expect(try AuditCheckpoints(services: api.services).verify(newer).sequence >= taken.sequence)
        }
    }

    /// A JWT with a subject and nothing to check, signed by one instance and verified by another.
    struct Probe: JWTPayload, Equatable {
        var sub: SubjectClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    @Test("a token signed by another instance's new key makes this instance read the keys at once")
    func unknownKeyIDReadsTheKeysAgain() async throws {
        try await TestServer().run { api in
            // Services over the same store with a signer of their own stand for another instance.
            let clock = api.clock
            let other = try await SCAServices.make(
                configuration: api.services.configuration, store: api.services.store, runtime: ServerRuntime(now: { clock.now() }))
            let next = try await other.signingKeys.rotate()
            #expect(api.services.signingKeys.list().count == 1, "this instance has not read the keys yet")
            api.clock.advance(by: SigningKeySchedule.defaultPrepublication)
            let token = try other.tokens.signer.sign(Probe(sub: SubjectClaim(value: "u1")))
            #expect(try Self.keyID(of: token) == next.keyID)
            #expect(try await api.services.tokens.signer.verify(token, as: Probe.self) == Probe(sub: SubjectClaim(value: "u1")))
            #expect(api.services.signingKeys.list().map(\.keyID).first == next.keyID)
        }
    }
}
