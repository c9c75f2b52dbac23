import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Partner webhooks and their durable outbox (v3-partner-webhooks): load, apply,
// store. Claims and retries are decided by the pure `WebhookDeliveryRecord` moves; the update
// here only compares versions.
extension PostgresStore {
    package func setPartnerWebhook(_ webhook: PartnerWebhookRecord) async throws {
        _ = try await rows(
            """
            INSERT INTO partner_webhooks (client_id, url, sealed_secret, created_at)
            VALUES (\(webhook.clientID), \(webhook.url), \(bytea(webhook.sealedSecret)), \(webhook.createdAt.unixSeconds))
            ON CONFLICT (client_id) DO UPDATE SET
                url = excluded.url, sealed_secret = excluded.sealed_secret, created_at = excluded.created_at
            """)
    }

    package func partnerWebhook(clientID: String) async throws -> PartnerWebhookRecord? {
        try await rows("SELECT * FROM partner_webhooks WHERE client_id = \(clientID)").first
            .map(PartnerWebhookRecord.init(row:))
    }

    package func removePartnerWebhook(clientID: String) async throws -> Bool {
        try await rows("DELETE FROM partner_webhooks WHERE client_id = \(clientID) RETURNING client_id").count == 1
    }

    package func insertWebhookDelivery(_ delivery: WebhookDeliveryRecord) async throws {
        do {
            _ = try await rows(Self.deliveryInsert(delivery))
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    /// Writes `delivery` (a unique violation when its id exists).
    static func deliveryInsert(_ delivery: WebhookDeliveryRecord) -> PostgresQuery {
        """
        INSERT INTO webhook_deliveries
            (id, kind, client_id, subject_id, body, status, attempts, next_attempt_at, lease_until,
             last_http_status, created_at, finished_at, version)
        VALUES (\(delivery.id), \(delivery.kind.rawValue), \(delivery.clientID), \(delivery.subjectID), \(delivery.body),
                \(delivery.status.rawValue), \(delivery.attempts), \(delivery.nextAttemptAt.unixSeconds),
                \(delivery.leaseUntil?.unixSeconds), \(delivery.lastHTTPStatus), \(delivery.createdAt.unixSeconds),
                \(delivery.finishedAt?.unixSeconds), \(delivery.version))
        """
    }

    package func webhookDelivery(id: String) async throws -> WebhookDeliveryRecord? {
        try await rows("SELECT * FROM webhook_deliveries WHERE id = \(id)").first.map(WebhookDeliveryRecord.init(row:))
    }

    package func dueWebhookDeliveries(now: Date, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await rows(
            """
            SELECT * FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= \(now.unixSeconds)
              AND (lease_until IS NULL OR lease_until <= \(now.unixSeconds))
            ORDER BY next_attempt_at, created_at, id LIMIT \(limit)
            """
        ).map(WebhookDeliveryRecord.init(row:))
    }

    package func updateWebhookDelivery(_ delivery: WebhookDeliveryRecord, expectedVersion: Int) async throws -> Bool {
        try await rows(
            """
            UPDATE webhook_deliveries SET
                client_id = \(delivery.clientID), subject_id = \(delivery.subjectID), body = \(delivery.body),
                status = \(delivery.status.rawValue), attempts = \(delivery.attempts),
                next_attempt_at = \(delivery.nextAttemptAt.unixSeconds), lease_until = \(delivery.leaseUntil?.unixSeconds),
                last_http_status = \(delivery.lastHTTPStatus), created_at = \(delivery.createdAt.unixSeconds),
                finished_at = \(delivery.finishedAt?.unixSeconds), version = \(expectedVersion + 1)
            WHERE id = \(delivery.id) AND version = \(expectedVersion)
            RETURNING id
            """
        ).count == 1
    }

    package func overdueOperations(now: Date, limit: Int) async throws -> [OperationRecord] {
        try await rows(
            """
            SELECT * FROM operations WHERE status = 'pending' AND expires_at <= \(now.unixSeconds)
            ORDER BY expires_at, id LIMIT \(limit)
            """
        ).map(OperationRecord.init(row:))
    }
}
