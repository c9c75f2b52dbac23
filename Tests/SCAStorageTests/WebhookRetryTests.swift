import Foundation
import SCAStorage
import Testing

/// An operator's retry of a webhook delivery, as a pure move: what it changes, and when it
/// changes nothing.
@Suite("Webhook delivery retry")
struct WebhookRetryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func delivery(_ status: WebhookDeliveryRecord.Status, attempts: Int, lease: Date? = nil) -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: "evt_1", clientID: "cli_a", subjectID: "op_1", body: "{}", status: status, attempts: attempts,
            nextAttemptAt: now + 600, leaseUntil: lease, lastHTTPStatus: 503, createdAt: now - 4000,
            finishedAt: status == .pending ? nil : now - 5)
    }

    @Test("a given-up delivery gets a whole new series of attempts, due now")
    func abandoned() {
        var retried = delivery(.abandoned, attempts: 6)
        let moved = retried.retry(now: now)
        #expect(moved)
        #expect(retried.status == .pending && retried.attempts == 0 && retried.finishedAt == nil)
        #expect(retried.isDue(now: now))
        #expect(retried.lastHTTPStatus == 503, "the last answer stays to read")
    }

    @Test("a failing delivery waiting out its back-off is due at once, its attempts kept")
    func backingOff() {
        var retried = delivery(.pending, attempts: 2)
        #expect(!retried.isDue(now: now))
        let moved = retried.retry(now: now)
        #expect(moved)
        #expect(retried.isDue(now: now) && retried.attempts == 2)
    }

    @Test("nothing to retry: delivered, not failed yet, or being sent now")
    func refused() {
        for (record, reason) in [
            (delivery(.delivered, attempts: 1), "delivered"),
            (delivery(.pending, attempts: 0), "not failed yet"),
            (delivery(.pending, attempts: 2, lease: now + 30), "being sent"),
        ] {
            var copy = record
            let moved = copy.retry(now: now)
            #expect(!moved, "\(reason)")
            #expect(copy == record, "\(reason): unchanged")
        }
        // A lease that lapsed (its sender died) no longer holds it back.
        var lapsed = delivery(.pending, attempts: 2, lease: now - 1)
        let moved = lapsed.retry(now: now)
        #expect(moved)
    }
}
