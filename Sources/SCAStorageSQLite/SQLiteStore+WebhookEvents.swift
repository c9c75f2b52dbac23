import Foundation
import GRDB
import SCACore
import SCAStorage

// Status changes with their webhook event (v3-webhook-events): the compare-and-set
// and the outbox write share one write transaction; whether the event is written is decided
// by the pure `WebhookDeliveryRecord.toEnqueue`.
extension SQLiteStore {
    package func updateOperation(
        _ operation: OperationRecord, expectedVersion: Int, enqueueing event: WebhookDeliveryRecord?
    ) async throws -> Bool {
        try await write { db in
            let stored = try Self.storeOperation(operation, expectedVersion: expectedVersion, in: db)
            try Self.enqueue(event, statusStored: stored, in: db)
            return stored
        }
    }

    package func updateConsent(
        _ consent: ConsentRecord, expectedVersion: Int, enqueueing event: WebhookDeliveryRecord?,
        auditing entry: AuditEntryDraft?
    ) async throws -> Bool {
        try await write { db in
            let stored = try Self.storeConsent(consent, expectedVersion: expectedVersion, in: db)
            try Self.enqueue(event, statusStored: stored, in: db)
            if stored, let entry { _ = try Self.appendAuditEntry(entry, db) }
            return stored
        }
    }

    package func overdueConsents(now: Date, limit: Int) async throws -> [ConsentRecord] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM consents WHERE status IN ('Created', 'Started') AND expires_at <= ?
                ORDER BY expires_at, id LIMIT ?
                """
            ).fetchAll(ConsentRecord.self, arguments: [now.unixSeconds, limit])
        }
    }

    /// Writes `event` when the decision says so, inside the caller's transaction.
    private static func enqueue(_ event: WebhookDeliveryRecord?, statusStored: Bool, in db: Database) throws {
        guard let event, statusStored else { return }
        let registered =
            try db.exists("SELECT 1 FROM partner_webhooks WHERE client_id = ?", arguments: [event.clientID])
        if let write = WebhookDeliveryRecord.toEnqueue(event, statusStored: statusStored, webhookRegistered: registered) {
            try insertDelivery(write, in: db)
        }
    }
}
