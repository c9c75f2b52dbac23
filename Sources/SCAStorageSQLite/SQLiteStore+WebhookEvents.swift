import Foundation
import GRDB
import SCACore
import SCAStorage

// Status changes with their webhook event (v3-webhook-events): the compare-and-set
// and the outbox write share one write transaction; whether the event is written is decided
// by the pure `WebhookDeliveryRecord.toEnqueue`.
extension SQLiteStore {
    package func updateOperation(
        _ operation: OperationRecord, expectedVersion: Int, enqueueing events: [WebhookDeliveryRecord]
    ) async throws -> Bool {
        try await write { db in
            let stored = try Self.storeOperation(operation, expectedVersion: expectedVersion, in: db)
            for event in events { try Self.enqueue(event, statusStored: stored, in: db) }
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
    static func enqueue(_ event: WebhookDeliveryRecord?, statusStored: Bool, in db: Database) throws {
        guard let event, statusStored else { return }
        let registered = try hasReceiver(of: event.kind, clientID: event.clientID, db)
        if let write = WebhookDeliveryRecord.toEnqueue(event, statusStored: statusStored, receiverRegistered: registered) {
            try insertDelivery(write, in: db)
        }
    }

    /// Whether the client has the address a delivery of `kind` goes to.
    static func hasReceiver(of kind: WebhookDeliveryRecord.Kind, clientID: String, _ db: Database) throws -> Bool {
        let sql = switch kind {
        case .event: "SELECT 1 FROM partner_webhooks WHERE client_id = ?"
        case .backchannelLogout: "SELECT 1 FROM partner_clients WHERE id = ? AND backchannel_logout_uri IS NOT NULL"
        case .cibaPing: "SELECT 1 FROM partner_clients WHERE id = ? AND ciba_notification_endpoint IS NOT NULL"
        }
        return try db.exists(sql, arguments: [clientID])
    }
}
