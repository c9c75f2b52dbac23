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

/// `GET /admin/v1/clients/{clientId}/activity`: what a partner holds of the bank's users and
/// what waits to be sent to it.
package struct PartnerActivityResponse: Codable, Sendable, Equatable {
    package var clientId: String
    /// Sessions not ended and used within the idle timeout.
    package var openSessions: Int
    /// Users who signed in to the partner at least once.
    package var grantedUsers: Int
    /// Consents by status (`Created`, `Accepted`, …); a status without any is absent.
    package var consents: [String: Int]
    package var deliveries: WebhookDeliveryTally

    package init(clientId: String, openSessions: Int, grantedUsers: Int, consents: [String: Int], deliveries: WebhookDeliveryTally) {
        self.clientId = clientId
        self.openSessions = openSessions
        self.grantedUsers = grantedUsers
        self.consents = consents
        self.deliveries = deliveries
    }
}

/// A partner's webhook deliveries (events, back-channel logouts, CIBA pings) by state.
package struct WebhookDeliveryTally: Codable, Sendable, Equatable {
    /// Waiting for their first attempt or a retry.
    package var pending: Int
    /// Of those pending, the ones whose last attempt failed.
    package var retrying: Int
    package var delivered: Int
    /// Given up after the last attempt.
    package var abandoned: Int

    package init(pending: Int, retrying: Int, delivered: Int, abandoned: Int) {
        self.pending = pending
        self.retrying = retrying
        self.delivered = delivered
        self.abandoned = abandoned
    }
}

/// One webhook delivery as an operator reads it: never its body (a logout names a session).
package struct WebhookDeliveryResponse: Codable, Sendable, Equatable {
    /// The event id (`SCA-Webhook-Id`).
    package var id: String
    /// `event`, `backchannel_logout` or `ciba_ping`.
    package var kind: String
    /// The operation, consent or session it is about.
    package var subjectId: String
    /// `pending`, `delivered` or `abandoned`.
    package var status: String
    package var attempts: Int
    /// The receiver's answer to the last attempt; absent when it was not reached.
    package var lastHttpStatus: Int?
    package var createdAt: Date
    /// When the next attempt is due, while pending.
    package var nextAttemptAt: Date?
    package var finishedAt: Date?

    package init(
        id: String, kind: String, subjectId: String, status: String, attempts: Int, lastHttpStatus: Int?, createdAt: Date,
        nextAttemptAt: Date?, finishedAt: Date?
    ) {
        self.id = id
        self.kind = kind
        self.subjectId = subjectId
        self.status = status
        self.attempts = attempts
        self.lastHttpStatus = lastHttpStatus
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.finishedAt = finishedAt
    }
}
