import Foundation
import SCACore
import SCAStorage
import Testing

// Partner webhooks and their outbox (v3-partner-webhooks), checked on every backend.
extension StoreConformance {
    func partnerWebhookRoundTrip() async throws {
        #expect(try await store.partnerWebhook(clientID: "cli_a") == nil)
        let first = PartnerWebhookRecord(clientID: "cli_a", url: "https://a.example/hook", sealedSecret: [1, 2], createdAt: t0)
        try await store.setPartnerWebhook(first)
        #expect(try await store.partnerWebhook(clientID: "cli_a") == first)
        // Setting again replaces (a new URL and a new secret).
        let second = PartnerWebhookRecord(clientID: "cli_a", url: "https://a.example/v2", sealedSecret: [3], createdAt: t0 + 5)
        try await store.setPartnerWebhook(second)
        #expect(try await store.partnerWebhook(clientID: "cli_a") == second)
        #expect(try await store.removePartnerWebhook(clientID: "cli_a"))
        #expect(try await !store.removePartnerWebhook(clientID: "cli_a"))
        #expect(try await store.partnerWebhook(clientID: "cli_a") == nil)
    }

    /// Due deliveries are listed oldest first; a claim is a compare-and-set, so of two
    /// instances claiming the same delivery one wins, and a leased delivery is not due.
    func webhookDeliveriesAreClaimedOnce() async throws {
        let later = WebhookDeliveryRecord(
            id: "evt_2", clientID: "cli_a", subjectID: "op_2", body: #"{"b":2}"#, nextAttemptAt: t0 + 10, createdAt: t0)
        let first = WebhookDeliveryRecord(
            id: "evt_1", clientID: "cli_a", subjectID: "op_1", body: #"{"a":1}"#, nextAttemptAt: t0, createdAt: t0)
        try await store.insertWebhookDelivery(later)
        try await store.insertWebhookDelivery(first)
        await #expect(throws: StoreError.conflict("id")) { try await store.insertWebhookDelivery(first) }
        #expect(try await store.webhookDelivery(id: "evt_1") == first)
        #expect(try await store.dueWebhookDeliveries(now: t0 + 1, limit: 10) == [first])
        #expect(try await store.dueWebhookDeliveries(now: t0 + 10, limit: 10) == [first, later])
        #expect(try await store.dueWebhookDeliveries(now: t0 + 10, limit: 1) == [first])

        let wins = try await claimInParallel("evt_1", at: t0 + 1)
        #expect(wins == 1)
        #expect(try await store.dueWebhookDeliveries(now: t0 + 10, limit: 10) == [later])
        let claimed = try #require(try await store.webhookDelivery(id: "evt_1"))
        #expect(claimed.leaseUntil == t0 + 1 + WebhookDeliveryRecord.lease)
        // A lapsed lease (its sender died) makes it due again.
        let afterLease = try await store.dueWebhookDeliveries(now: t0 + 1 + WebhookDeliveryRecord.lease, limit: 10)
        #expect(afterLease.map(\.id) == ["evt_1", "evt_2"])
        let delivered = Self.delivered(claimed, now: t0 + 2)
        #expect(try await store.updateWebhookDelivery(delivered, expectedVersion: claimed.version))
        let stored = try #require(try await store.webhookDelivery(id: "evt_1"))
        #expect(stored.version == claimed.version + 1)
        #expect(stored.status == .delivered)
        #expect(stored.attempts == 1)
        #expect(stored.lastHTTPStatus == 200)
        #expect(stored.leaseUntil == nil)
        #expect(try await store.dueWebhookDeliveries(now: t0 + 10_000, limit: 10) == [later])
    }

    /// Ten instances claim delivery `id` at once.
    /// - Returns: how many claims were stored.
    func claimInParallel(_ id: String, at claimAt: Date) async throws -> Int {
        let store = self.store
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    let loaded = try #require(try await store.webhookDelivery(id: id))
                    var claimed = loaded
                    guard claimed.claim(now: claimAt) else { return false }
                    return try await store.updateWebhookDelivery(claimed, expectedVersion: loaded.version)
                }
            }
            var count = 0
            for try await won in group {
                if won { count += 1 }
            }
            return count
        }
    }

    static func delivered(_ delivery: WebhookDeliveryRecord, now: Date) -> WebhookDeliveryRecord {
        var next = delivery
        next.record(httpStatus: 200, now: now)
        return next
    }

    func overdueOperationsAreListed() async throws {
        let soon = makeOperation("op_soon")
        let late = makeOperation("op_late", createdAt: t0 + 100)
        var done = makeOperation("op_done")
        _ = done.finish(as: .canceled, now: t0 + 1)
        for operation in [late, soon, done] { try await store.insertOperation(operation) }
        #expect(try await store.overdueOperations(now: t0 + 299, limit: 10).isEmpty)
        #expect(try await store.overdueOperations(now: t0 + 300, limit: 10) == [soon])
        #expect(try await store.overdueOperations(now: t0 + 400, limit: 10) == [soon, late])
        #expect(try await store.overdueOperations(now: t0 + 400, limit: 1) == [soon])
    }
}
