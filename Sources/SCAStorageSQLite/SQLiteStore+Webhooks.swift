import Foundation
import GRDB
import SCACore
import SCAStorage

// Partner webhooks and their durable outbox (v3-partner-webhooks): load, apply,
// store. Claims and retries are decided by the pure `WebhookDeliveryRecord` moves; the update
// here only compares versions.
extension SQLiteStore {
    package func setPartnerWebhook(_ webhook: PartnerWebhookRecord) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO partner_webhooks (client_id, url, sealed_secret, created_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (client_id) DO UPDATE SET
                        url = excluded.url, sealed_secret = excluded.sealed_secret, created_at = excluded.created_at
                    """,
                arguments: [webhook.clientID, webhook.url, Data(webhook.sealedSecret), webhook.createdAt.unixSeconds])
        }
    }

    package func partnerWebhook(clientID: String) async throws -> PartnerWebhookRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM partner_webhooks WHERE client_id = ?")
                .fetchOne(PartnerWebhookRecord.self, arguments: [clientID])
        }
    }

    package func removePartnerWebhook(clientID: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM partner_webhooks WHERE client_id = ?", arguments: [clientID])
            return db.changesCount == 1
        }
    }

    package func insertWebhookDelivery(_ delivery: WebhookDeliveryRecord) async throws {
        try await write { db in try Self.insertDelivery(delivery, in: db) }
    }

    /// Writes `delivery` inside the caller's transaction.
    /// - Throws: `StoreError.conflict("id")` when the id exists.
    static func insertDelivery(_ delivery: WebhookDeliveryRecord, in db: Database) throws {
        do {
            try db.execute(
                sql: """
                    INSERT INTO webhook_deliveries
                        (id, kind, client_id, subject_id, body, status, attempts, next_attempt_at, lease_until,
                         last_http_status, created_at, finished_at, version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    delivery.id, delivery.kind.rawValue, delivery.clientID, delivery.subjectID, delivery.body, delivery.status.rawValue,
                    delivery.attempts, delivery.nextAttemptAt.unixSeconds, delivery.leaseUntil?.unixSeconds,
                    delivery.lastHTTPStatus, delivery.createdAt.unixSeconds, delivery.finishedAt?.unixSeconds,
                    delivery.version,
                ])
        } catch let error as DatabaseError where error.isUniquenessViolation {
            throw StoreError.conflict("id")
        }
    }

    package func webhookDelivery(id: String) async throws -> WebhookDeliveryRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM webhook_deliveries WHERE id = ?")
                .fetchOne(WebhookDeliveryRecord.self, arguments: [id])
        }
    }

    package func dueWebhookDeliveries(now: Date, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM webhook_deliveries
                WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
                ORDER BY next_attempt_at, created_at, id LIMIT ?
                """
            ).fetchAll(WebhookDeliveryRecord.self, arguments: [now.unixSeconds, now.unixSeconds, limit])
        }
    }

    package func updateWebhookDelivery(_ delivery: WebhookDeliveryRecord, expectedVersion: Int) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE webhook_deliveries SET
                        client_id = ?, subject_id = ?, body = ?, status = ?, attempts = ?, next_attempt_at = ?,
                        lease_until = ?, last_http_status = ?, created_at = ?, finished_at = ?, version = ?
                    WHERE id = ? AND version = ?
                    """,
                arguments: [
                    delivery.clientID, delivery.subjectID, delivery.body, delivery.status.rawValue, delivery.attempts,
                    delivery.nextAttemptAt.unixSeconds, delivery.leaseUntil?.unixSeconds, delivery.lastHTTPStatus,
                    delivery.createdAt.unixSeconds, delivery.finishedAt?.unixSeconds, expectedVersion + 1,
                    delivery.id, expectedVersion,
                ])
            return db.changesCount == 1
        }
    }

    package func overdueOperations(now: Date, limit: Int) async throws -> [OperationRecord] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM operations WHERE status = 'pending' AND expires_at <= ?
                ORDER BY expires_at, id LIMIT ?
                """
            ).fetchAll(OperationRecord.self, arguments: [now.unixSeconds, limit])
        }
    }
}
