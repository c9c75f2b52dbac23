import Foundation

// Partner webhooks.
extension SCAServices {
    /// One delivery pass, as the background service runs it (also for `sca-server` and tests).
    @discardableResult
    package func deliverWebhooks() async throws -> Int {
        try await webhooks.deliverDue(expiring: operations, consents: consents)
    }
}
