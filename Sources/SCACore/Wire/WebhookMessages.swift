import Foundation

/// `PUT /admin/v1/clients/{clientId}/webhook`: where the partner's operation events go.
package struct SetPartnerWebhookRequest: Codable, Sendable, Equatable {
    /// https, or http on localhost / 127.0.0.1 for development.
    package var url: String

    package init(url: String) {
        self.url = url
    }
}

/// A partner client's webhook. `signingSecret` is in the answer that sets it, once.
package struct PartnerWebhookResponse: Codable, Sendable, Equatable {
    package var clientId: String
    package var url: String
    /// The HMAC-SHA256 key the events are signed with; shown once.
    package var signingSecret: String?
    package var createdAt: Date

    package init(clientId: String, url: String, signingSecret: String? = nil, createdAt: Date) {
        self.clientId = clientId
        self.url = url
        self.signingSecret = signingSecret
        self.createdAt = createdAt
    }
}

/// The body of a webhook POST: an operation of the partner reached its final status. It never
/// carries the token; the partner reads that with `GET /v1/operations/{id}`.
package struct WebhookEvent: Codable, Sendable, Equatable {
    /// `operation.finished`.
    package var type: String
    /// The same as the `SCA-Webhook-Id` header: receivers drop an event id they have seen.
    package var eventId: String
    package var operationId: String
    package var status: OperationStatus
    package var occurredAt: Date

    package init(type: String, eventId: String, operationId: String, status: OperationStatus, occurredAt: Date) {
        self.type = type
        self.eventId = eventId
        self.operationId = operationId
        self.status = status
        self.occurredAt = occurredAt
    }
}
