import Foundation
import SCACore
import SCAStorage

// A partner's delivery health, as the console's partners page and the admin API show it, and
// an operator's retry of what failed.
extension WebhookService {
    /// The most failed deliveries one answer lists.
    package static let failedListLength = 50

    /// What `clientID` holds and what waits for it, sessions counted within the idle timeout.
    /// - Throws: `Problem.clientNotFound`.
    package func activity(of clientID: String) async throws -> PartnerActivityResponse {
        try await activity(of: try await existingClient(clientID))
    }

    /// What `client`, read already, holds and what waits for it.
    func activity(of client: PartnerClientRecord) async throws -> PartnerActivityResponse {
        let since = runtime.now().addingTimeInterval(-TimeInterval(configuration.sessionIdleTimeout))
        let activity = try await store.partnerActivity(clientID: client.id, activeSince: since)
        return PartnerActivityResponse(
            clientId: client.id, openSessions: activity.openSessions, grantedUsers: activity.grantedUsers,
            consents: Dictionary(uniqueKeysWithValues: activity.consents.map { ($0.key.rawValue, $0.value) }),
            deliveries: WebhookDeliveryTally(
                pending: activity.deliveries[.pending] ?? 0, retrying: activity.retrying,
                delivered: activity.deliveries[.delivered] ?? 0, abandoned: activity.deliveries[.abandoned] ?? 0))
    }

    /// The client's deliveries that failed: abandoned, or pending after a failed attempt
    /// (a first attempt still to come is no failure), newest first.
    /// - Throws: `Problem.clientNotFound`.
    package func failedDeliveries(of clientID: String) async throws -> [WebhookDeliveryResponse] {
        try await failedDeliveries(of: try await existingClient(clientID))
    }

    /// The failed deliveries of `client`, read already.
    func failedDeliveries(of client: PartnerClientRecord) async throws -> [WebhookDeliveryResponse] {
        try await store.failedWebhookDeliveries(clientID: client.id, limit: Self.failedListLength).map(Self.describe)
    }

    /// Sends a failed delivery again: one given up gets a new series of attempts, one waiting
    /// out its back-off is due at once; the background sender takes it on its next pass.
    /// Recorded as `webhook.retried`.
    /// - Throws: `Problem.clientNotFound`; 404 `resource.not_found` for a delivery that is not
    ///   the client's; 409 `webhook.not_retryable` for one delivered, being sent, or not failed.
    package func retry(_ deliveryID: String, of clientID: String) async throws -> WebhookDeliveryResponse {
        let client = try await existingClient(clientID)
        guard deliveryID.utf8.count <= InputRules.maxIDLength, let stored = try await store.webhookDelivery(id: deliveryID),
            stored.clientID == client.id
        else {
            throw Problem(status: 404, code: .notFound, title: "Not found", detail: "The client has no such delivery.")
        }
        var retried = stored
        guard retried.retry(now: runtime.now()), try await store.updateWebhookDelivery(retried, expectedVersion: stored.version)
        else {
            throw Problem(
                status: 409, code: .webhookNotRetryable, title: "Not retryable",
                detail: "The delivery was delivered, is being sent, or has not failed.")
        }
        retried.version += 1
        await audit.record(
            .webhookRetried, details: ["eventId": retried.id, "clientId": client.id, "kind": retried.kind.rawValue])
        return Self.describe(retried)
    }

    static func describe(_ delivery: WebhookDeliveryRecord) -> WebhookDeliveryResponse {
        WebhookDeliveryResponse(
            id: delivery.id, kind: delivery.kind.rawValue, subjectId: delivery.subjectID, status: delivery.status.rawValue,
            attempts: delivery.attempts, lastHttpStatus: delivery.lastHTTPStatus, createdAt: delivery.createdAt,
            nextAttemptAt: delivery.status == .pending ? delivery.nextAttemptAt : nil, finishedAt: delivery.finishedAt)
    }

    private func existingClient(_ clientID: String) async throws -> PartnerClientRecord {
        guard InputRules.isWellFormedID(clientID, prefix: "cli"), let client = try await store.partnerClient(id: clientID) else {
            throw Problem.clientNotFound
        }
        return client
    }
}
