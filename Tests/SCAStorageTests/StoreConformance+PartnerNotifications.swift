import Foundation
import SCACore
import SCAStorage
import Testing

// What the server tells a partner on its own (v7-partner-notifications), checked on every
// backend: a partner's session that ends is announced once, in the write that ends it, and
// only to a client that takes back-channel logouts; a CIBA ping is queued only for a client in
// ping mode.
extension StoreConformance {
    private func partnerSession(_ id: String, client: String?, user: String = "u1") -> SessionRecord {
        SessionRecord(
            id: id, userID: user, operation: .login, challengeID: "c_\(id)", createdAt: t0, lastUsedAt: t0, clientID: client)
    }

    private func notifiedClients() async throws {
        try await store.createPartnerClient(
            PartnerClientRecord(
                id: "cli_told", name: "Told", secretHash: [1], redirectURIs: ["https://told.example/cb"],
                consentRedirectURIs: [], scopes: ["openid"], createdAt: t0,
                backchannelLogoutURI: "https://told.example/logout", cibaNotificationEndpoint: "https://told.example/ping"))
        try await store.createPartnerClient(
            PartnerClientRecord(
                id: "cli_quiet", name: "Quiet", secretHash: [2], redirectURIs: ["https://quiet.example/cb"],
                consentRedirectURIs: [], scopes: ["openid"], createdAt: t0))
    }

    func sessionEndsAreAnnouncedOnce() async throws {
        try await notifiedClients()
        let told = try #require(try await store.partnerClient(id: "cli_told"))
        #expect(told.backchannelLogoutURI == "https://told.example/logout")
        #expect(told.cibaNotificationEndpoint == "https://told.example/ping")
        #expect(try await store.partnerClient(id: "cli_quiet")?.backchannelLogoutURI == nil)

        for session in [
            partnerSession("s_told", client: "cli_told"), partnerSession("s_quiet", client: "cli_quiet"),
            partnerSession("s_own", client: nil), partnerSession("s_told2", client: "cli_told"),
            partnerSession("s_idle", client: "cli_told"), partnerSession("s_other", client: "cli_told", user: "u2"),
        ] {
            try await store.createSession(session, refreshToken: nil)
        }

        // Ended by a revocation: announced, once, however often it is revoked.
        try await store.revokeSession(id: "s_told", now: t0 + 5)
        try await store.revokeSession(id: "s_told", now: t0 + 6)
        let logout = try #require(try await store.webhookDelivery(id: "lgo_s_told"))
        #expect(logout.kind == .backchannelLogout)
        #expect(logout.clientID == "cli_told")
        #expect(logout.subjectID == "s_told")
        #expect(logout.nextAttemptAt == t0 + 5)

        // Not to a client without a logout URI, nor for a first-party session.
        try await store.revokeSession(id: "s_quiet", now: t0 + 5)
        #expect(try await store.webhookDelivery(id: "lgo_s_quiet") == nil)

        // A session that went idle is not announced: its partner learns it at its next use.
        #expect(try await store.useSession(id: "s_idle", now: t0 + 1000, idleTimeout: 300) == .idle)
        #expect(try await store.webhookDelivery(id: "lgo_s_idle") == nil)

        // Every live session of the user ends together, each announced; other users keep theirs.
        #expect(try await store.endSessions(userID: "u1", now: t0 + 20) == 2)
        #expect(try await store.session(id: "s_own")?.revokedAt == t0 + 20)
        #expect(try await store.webhookDelivery(id: "lgo_s_told2")?.kind == .backchannelLogout)
        #expect(try await store.session(id: "s_other")?.revokedAt == nil)
        #expect(try await store.endSessions(userID: "u1", now: t0 + 30) == 0)
        #expect(try await allEvents().map(\.id).sorted() == ["lgo_s_told", "lgo_s_told2"])
    }

    /// 30 revocations of one session at once (a logout, a revocation, a block, on several
    /// instances): one end, one announcement.
    func parallelEndsAnnounceOnce() async throws {
        try await notifiedClients()
        try await store.createSession(partnerSession("s_told", client: "cli_told"), refreshToken: nil)
        let store = self.store
        let t0 = self.t0
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask {
                    if index % 3 == 0 {
                        _ = try await store.endSessions(userID: "u1", now: t0 + 5)
                    } else {
                        try await store.revokeSession(id: "s_told", now: t0 + 5)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await allEvents().map(\.id) == ["lgo_s_told"])
    }

    func refreshReuseIsAnnounced() async throws {
        try await notifiedClients()
        try await store.createSession(
            partnerSession("s_told", client: "cli_told"),
            refreshToken: RefreshTokenRecord(tokenHash: [1], sessionID: "s_told", issuedAt: t0, expiresAt: t0 + 3600))
        _ = try await store.rotateRefreshToken(
            presentedHash: [1], replacementHash: [2], replacementExpiresAt: t0 + 3600, now: t0 + 1, idleTimeout: 300)
        #expect(
            try await store.rotateRefreshToken(
                presentedHash: [1], replacementHash: [3], replacementExpiresAt: t0 + 3600, now: t0 + 2, idleTimeout: 300)
                == .reuseDetected(sessionID: "s_told"))
        #expect(try await store.webhookDelivery(id: "lgo_s_told")?.kind == .backchannelLogout)
    }

    func cibaPingsGoToPingClientsOnly() async throws {
        try await notifiedClients()
        for (id, client) in [("op_told", "cli_told"), ("op_quiet", "cli_quiet")] {
            var operation = makeOperation(id)
            operation.clientID = client
            operation.sealedNotification = [7, 7]
            try await store.insertOperation(operation)
            #expect(try await store.operation(id: id)?.sealedNotification == [7, 7])
            var finished = operation
            let moved = finished.finish(as: .canceled, now: t0 + 5)
            #expect(moved)
            var ping = event("png_\(id)", subject: id, client: client)
            ping.kind = .cibaPing
            #expect(try await store.updateOperation(finished, expectedVersion: 0, enqueueing: [ping]))
        }
        #expect(try await store.webhookDelivery(id: "png_op_told")?.kind == .cibaPing)
        #expect(try await store.webhookDelivery(id: "png_op_quiet") == nil)
    }
}
