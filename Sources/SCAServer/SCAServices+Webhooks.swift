import Foundation
import SCAEngine

// Partner webhooks.
extension SCAServices {
    /// One delivery pass, as the background service runs it (also for `sca-server` and tests):
    /// expires the operations and consents whose time is up, so that their events are written,
    /// then sends every delivery that is due.
    /// - Returns: how many delivery attempts were made.
    @discardableResult
    package func deliverWebhooks() async throws -> Int {
        let now = runtime.now()
        for overdue in try await store.overdueOperations(now: now, limit: WebhookService.batch) {
            _ = try? await operations.load(overdue.id)
        }
        for overdue in try await store.overdueConsents(now: now, limit: WebhookService.batch) {
            _ = try? await consents.load(overdue.id)
        }
        return try await webhooks.deliverDue()
    }
}
