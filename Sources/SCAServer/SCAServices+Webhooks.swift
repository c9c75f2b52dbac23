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
        let now = engine.runtime.now()
        for overdue in try await engine.store.overdueOperations(now: now, limit: WebhookService.batch) {
            _ = try? await engine.operations.load(overdue.id)
        }
        for overdue in try await engine.store.overdueConsents(now: now, limit: WebhookService.batch) {
            _ = try? await partnerAccess.consents.load(overdue.id)
        }
        return try await engine.webhooks.deliverDue()
    }
}
