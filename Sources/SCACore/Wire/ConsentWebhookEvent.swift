import Foundation

/// The body of a consent webhook event (`consent.status_changed`): a consent of the
/// receiving partner reached a decided status (`ConsentStatus.isAnnounced`). Like operation
/// events it never carries the token: the partner reads it with `GET /v1/consents/{id}`.
package struct ConsentWebhookEvent: Codable, Sendable, Equatable {
    /// `consent.status_changed`.
    package var type: String
    /// The same as the `SCA-Webhook-Id` header: receivers drop an event id they have seen.
    package var eventId: String
    package var consentId: String
    package var status: ConsentStatus
    /// The partner's own reference given when the consent was created.
    package var resourceId: String?
    package var occurredAt: Date

    package init(type: String, eventId: String, consentId: String, status: ConsentStatus, resourceId: String?, occurredAt: Date) {
        self.type = type
        self.eventId = eventId
        self.consentId = consentId
        self.status = status
        self.resourceId = resourceId
        self.occurredAt = occurredAt
    }
}
