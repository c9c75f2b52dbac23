import Foundation
import SCACore
import SCAStorage

// Consent webhooks: a consent's decided statuses go through the same outbox,
// signature and back-off as operation events.
extension WebhookService {
    static let consentEventType = "consent.status_changed"

    /// The event announcing `consent`'s status, to be written by the store in the same
    /// transaction as that status (`updateConsent(_:expectedVersion:enqueueing:)`): nil when
    /// the status is not announced (`ConsentStatus.isAnnounced`).
    package func event(for consent: ConsentRecord) -> WebhookDeliveryRecord? {
        guard consent.status.isAnnounced else { return nil }
        let now = runtime.now()
        let id = runtime.makeID(prefix: "evt")
        let event = ConsentWebhookEvent(
            type: Self.consentEventType, eventId: id, consentId: consent.id, status: consent.status,
            resourceId: consent.resourceID, occurredAt: consent.updatedAt)
        return delivery(id: id, clientID: consent.clientID, subjectID: consent.id, event: event, now: now)
    }
}
