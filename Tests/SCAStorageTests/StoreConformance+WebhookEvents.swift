import Foundation
import SCACore
import SCAStorage
import Testing

// Status changes with their webhook event (v3-webhook-events), checked on every
// backend: the event exists iff the compare-and-set won, and the two are one transaction.
extension StoreConformance {
    func event(_ id: String, subject: String, client: String = "cli_a") -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: id, clientID: client, subjectID: subject, body: #"{"eventId":"\#(id)"}"#, nextAttemptAt: t0 + 5, createdAt: t0 + 5)
    }

    /// Every outbox row, whatever its time.
    func allEvents() async throws -> [WebhookDeliveryRecord] {
        try await store.dueWebhookDeliveries(now: t0 + 1_000_000, limit: 1000)
    }

    func statusChangeAndEventAreOneWrite() async throws {
        try await store.setPartnerWebhook(
            PartnerWebhookRecord(clientID: "cli_a", url: "https://a.example/hook", sealedSecret: [1], createdAt: t0))
        let operation = makeOperation("op_1")
        try await store.insertOperation(operation)
        var canceled = operation
        let movedCanceled = canceled.finish(as: .canceled, now: t0 + 5)
        #expect(movedCanceled)

        // A compare-and-set that loses writes no event.
        #expect(try await !store.updateOperation(canceled, expectedVersion: 7, enqueueing: [event("evt_lost", subject: "op_1")]))
        #expect(try await allEvents().isEmpty)

        // An event whose id exists fails the whole write: the status is not stored either.
        try await store.insertWebhookDelivery(event("evt_taken", subject: "op_other"))
        await #expect(throws: StoreError.conflict("id")) {
            try await store.updateOperation(canceled, expectedVersion: 0, enqueueing: [event("evt_taken", subject: "op_1")])
        }
        #expect(try await store.operation(id: "op_1") == operation)

        // The winner's event is written with it.
        #expect(try await store.updateOperation(canceled, expectedVersion: 0, enqueueing: [event("evt_won", subject: "op_1")]))
        #expect(try await store.operation(id: "op_1")?.status == .canceled)
        #expect(try await allEvents().map(\.id).sorted() == ["evt_taken", "evt_won"])
        #expect(try await store.webhookDelivery(id: "evt_won") == event("evt_won", subject: "op_1"))

        // A client without a webhook gets no event, but its status is stored.
        var other = makeOperation("op_2")
        other.clientID = "cli_b"
        try await store.insertOperation(other)
        var rejected = other
        let movedRejected = rejected.finish(as: .rejected, reason: .notMe, now: t0 + 5)
        #expect(movedRejected)
        #expect(
            try await store.updateOperation(rejected, expectedVersion: 0, enqueueing: [event("evt_b", subject: "op_2", client: "cli_b")]))
        #expect(try await store.operation(id: "op_2")?.status == .rejected)
        #expect(try await store.webhookDelivery(id: "evt_b") == nil)

        // Consents take the same path.
        let consent = ConsentRecord(
            id: "cst_1", clientID: "cli_a", userID: "u1", operation: .settingsChange, summary: "x",
            redirectURL: "https://shop.example/consent", createdAt: t0, expiresAt: t0 + 900)
        try await store.insertConsent(consent, auditing: consentEntry("cst_1", to: "Created"))
        var refused = consent
        let movedRefused = refused.move(to: .customerRefused, now: t0 + 5)
        #expect(movedRefused)
        #expect(try await !store.updateConsent(
            refused, expectedVersion: 3, enqueueing: event("evt_c0", subject: "cst_1"),
            auditing: consentEntry("cst_1", to: "lost")))
        #expect(try await store.updateConsent(
            refused, expectedVersion: 0, enqueueing: event("evt_c1", subject: "cst_1"),
            auditing: consentEntry("cst_1", to: "CustomerRefused")))
        #expect(try await store.consent(id: "cst_1")?.status == .customerRefused)
        #expect(try await store.webhookDelivery(id: "evt_c0") == nil)
        #expect(try await store.webhookDelivery(id: "evt_c1")?.subjectID == "cst_1")
        // The audit entry, like the event, exists iff the compare-and-set won.
        let moves = try await store.auditEntries(after: 0, limit: 10).filter { $0.draft.event == "consent.changed" }
        #expect(moves.map(\.draft.details["to"]) == ["Created", "CustomerRefused"])
    }

    /// 50 instances finish one operation at once, each with its own event: one status, one event.
    func parallelFinalisationsWriteOneEvent() async throws {
        try await store.setPartnerWebhook(
            PartnerWebhookRecord(clientID: "cli_a", url: "https://a.example/hook", sealedSecret: [1], createdAt: t0))
        try await store.insertOperation(makeOperation("op_race"))
        let store = self.store
        let now = t0 + 5
        let results = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for index in 0..<50 {
                let event = event("evt_\(index)", subject: "op_race")
                group.addTask {
                    let loaded = try #require(try await store.operation(id: "op_race"))
                    let target: OperationStatus = [.approved, .rejected, .canceled][index % 3]
                    var next = loaded
                    guard next.finish(as: target, reason: .other, sealedToken: [9], now: now) else { return (event.id, false) }
                    return (event.id, try await store.updateOperation(next, expectedVersion: loaded.version, enqueueing: [event]))
                }
            }
            var all: [(String, Bool)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let winners = results.filter(\.1).map(\.0)
        #expect(winners.count == 1)
        #expect(try await allEvents().map(\.id) == winners)
        #expect(try await store.operation(id: "op_race")?.version == 1)
    }
}

extension StoreConformance {
    /// Open consents past their time are listed for the sweep; decided ones and live ones are not.
    func overdueConsentsAreListed() async throws {
        func consent(_ id: String, expiresAt: Date) -> ConsentRecord {
            ConsentRecord(
                id: id, clientID: "cli_a", userID: "u1", operation: .settingsChange, summary: "x",
                redirectURL: "https://shop.example/consent", createdAt: t0, expiresAt: expiresAt)
        }
        let late = consent("cst_late", expiresAt: t0 + 10)
        let later = consent("cst_later", expiresAt: t0 + 20)
        let live = consent("cst_live", expiresAt: t0 + 900)
        var refused = consent("cst_refused", expiresAt: t0 + 5)
        for record in [later, live, late, refused] {
            try await store.insertConsent(record, auditing: consentEntry(record.id, to: "Created"))
        }
        let moved = refused.move(to: .customerRefused, now: t0 + 1)
        #expect(moved)
        #expect(try await store.updateConsent(refused, expectedVersion: 0))
        #expect(try await store.overdueConsents(now: t0 + 30, limit: 10).map(\.id) == ["cst_late", "cst_later"])
        #expect(try await store.overdueConsents(now: t0 + 30, limit: 1).map(\.id) == ["cst_late"])
        #expect(try await store.overdueConsents(now: t0 + 9, limit: 10).isEmpty)
    }
}
