import Foundation
import SCACore
import SCAStorage
import Testing

// What the console's partners page reads of a client (v13-partner-health), checked on every
// backend: its open sessions, the users it was granted, its consents and webhook deliveries by
// status, and the failed deliveries newest first.
extension StoreConformance {
    func partnerActivityIsCounted() async throws {
        #expect(try await store.partnerActivity(clientID: "cli_a", activeSince: t0) == PartnerActivity())
        for (id, user, lastUsed) in [("s1", "u1", t0 + 100), ("s2", "u2", t0 + 10), ("s3", "u1", t0 + 200)] {
            try await store.createSession(
                SessionRecord(id: id, userID: user, operation: .login, challengeID: "c-\(id)", createdAt: t0, lastUsedAt: lastUsed,
                    clientID: "cli_a"),
                refreshToken: nil)
        }
        try await store.createSession(
            SessionRecord(id: "s4", userID: "u1", operation: .login, challengeID: "c-s4", createdAt: t0, lastUsedAt: t0 + 100,
                clientID: "cli_b"),
            refreshToken: nil)
        try await store.revokeSession(id: "s3", now: t0 + 201)
        for (index, (user, session)) in [("u1", "s1"), ("u2", "s2"), ("u1", "s3")].enumerated() {
            try await store.insertAuthorizationGrant(
                AuthorizationGrantRecord(
                    codeHash: [UInt8(index)], clientID: "cli_a", redirectURI: "https://shop.example/cb", userID: user,
                    sessionID: session, scopes: ["openid"], nonce: nil, codeChallenge: "challenge", authTime: t0,
                    sealedTokens: [7], expiresAt: t0 + 60))
        }
        for index in 0..<3 {
            try await store.insertConsent(
                ConsentRecord(
                    id: "cst_\(index)", clientID: index == 2 ? "cli_b" : "cli_a", userID: "u1", operation: .settingsChange,
                    summary: "x", redirectURL: "https://shop.example/consent", createdAt: t0, expiresAt: t0 + 900),
                auditing: consentEntry("cst_\(index)", to: "Created"))
        }
        let deliveries = [
            WebhookDeliveryRecord(id: "evt_1", clientID: "cli_a", subjectID: "op_1", body: "{}", nextAttemptAt: t0, createdAt: t0),
            WebhookDeliveryRecord(
                id: "evt_2", clientID: "cli_a", subjectID: "op_2", body: "{}", attempts: 2, nextAttemptAt: t0 + 60,
                lastHTTPStatus: 503, createdAt: t0 + 1),
            WebhookDeliveryRecord(
                id: "evt_3", clientID: "cli_a", subjectID: "op_3", body: "{}", status: .abandoned, attempts: 8,
                nextAttemptAt: t0, createdAt: t0 + 2, finishedAt: t0 + 3),
            WebhookDeliveryRecord(
                id: "evt_4", clientID: "cli_a", subjectID: "op_4", body: "{}", status: .delivered, attempts: 1,
                nextAttemptAt: t0, lastHTTPStatus: 200, createdAt: t0 + 3, finishedAt: t0 + 3),
            WebhookDeliveryRecord(id: "evt_5", clientID: "cli_b", subjectID: "op_5", body: "{}", nextAttemptAt: t0, createdAt: t0),
        ]
        for delivery in deliveries { try await store.insertWebhookDelivery(delivery) }

        let activity = try await store.partnerActivity(clientID: "cli_a", activeSince: t0 + 50)
        #expect(activity.openSessions == 1, "s2 idle, s3 ended, s4 another client's")
        #expect(activity.grantedUsers == 2)
        #expect(activity.consents == [.created: 2])
        #expect(activity.deliveries == [.pending: 2, .abandoned: 1, .delivered: 1])
        #expect(activity.retrying == 1)
        #expect(try await store.partnerActivity(clientID: "cli_a", activeSince: t0).openSessions == 2)

        // The failed ones, newest first: given up, or pending after a failed attempt; neither one
        // still waiting for its first attempt, nor one delivered, nor another client's.
        #expect(try await store.failedWebhookDeliveries(clientID: "cli_a", limit: 10) == [deliveries[2], deliveries[1]])
        #expect(try await store.failedWebhookDeliveries(clientID: "cli_a", limit: 1).map(\.id) == ["evt_3"])
        #expect(try await store.failedWebhookDeliveries(clientID: "cli_b", limit: 10).isEmpty)
    }
}
