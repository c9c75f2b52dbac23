import Foundation

// Partner webhooks.
extension SCAServices {
    public var webhooks: WebhookService {
        WebhookService(
            store: store, box: box, runtime: runtime, audit: audit, logger: logger, outbound: outbound,
            allowPrivateAddresses: configuration.webhookAllowPrivateAddresses)
    }

    /// One delivery pass, as the background service runs it (also for `sca-server` and tests).
    @discardableResult
    public func deliverWebhooks() async throws -> Int {
        try await webhooks.deliverDue(expiring: operations, consents: consents)
    }
}
