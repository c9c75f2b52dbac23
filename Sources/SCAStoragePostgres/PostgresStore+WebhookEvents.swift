import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Status changes with their webhook event (v3-webhook-events): the compare-and-set
// and the outbox write share one transaction; whether the event is written is decided by the
// pure `WebhookDeliveryRecord.toEnqueue`.
extension PostgresStore {
    package func updateOperation(
        _ operation: OperationRecord, expectedVersion: Int, enqueueing events: [WebhookDeliveryRecord]
    ) async throws -> Bool {
        try await stored(Self.operationUpdate(operation, expectedVersion: expectedVersion), enqueueing: events)
    }

    package func updateConsent(
        _ consent: ConsentRecord, expectedVersion: Int, enqueueing event: WebhookDeliveryRecord?,
        auditing entry: AuditEntryDraft?
    ) async throws -> Bool {
        try await stored(
            Self.consentUpdate(consent, expectedVersion: expectedVersion), enqueueing: event.map { [$0] } ?? [], auditing: entry)
    }

    package func overdueConsents(now: Date, limit: Int) async throws -> [ConsentRecord] {
        try await rows(
            """
            SELECT * FROM consents WHERE status IN ('Created', 'Started') AND expires_at <= \(now.unixSeconds)
            ORDER BY expires_at, id LIMIT \(limit)
            """
        ).map(ConsentRecord.init(row:))
    }

    /// Runs the compare-and-set `update` and, in the same transaction, writes each of `events`
    /// the decision keeps and appends `entry` when the update won (last: the audit append holds
    /// its lock until the transaction ends).
    private func stored(
        _ update: PostgresQuery, enqueueing events: [WebhookDeliveryRecord], auditing entry: AuditEntryDraft? = nil
    ) async throws -> Bool {
        let logger = self.logger
        do {
            return try await transaction { [self] connection in
                let stored = try await connection.rows(update, logger: logger).count == 1
                guard stored else { return false }
                for event in events { try await enqueue(event, statusStored: stored, connection) }
                if let entry { _ = try await appendAuditEntries([entry], connection) }
                return stored
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    /// Writes `event` when the decision says so, inside the caller's transaction.
    func enqueue(_ event: WebhookDeliveryRecord?, statusStored: Bool, _ connection: PostgresConnection) async throws {
        guard let event, statusStored else { return }
        let registered = try await hasReceiver(of: event.kind, clientID: event.clientID, connection)
        if let write = WebhookDeliveryRecord.toEnqueue(event, statusStored: statusStored, receiverRegistered: registered) {
            _ = try await connection.rows(Self.deliveryInsert(write), logger: logger)
        }
    }

    /// Whether the client has the address a delivery of `kind` goes to.
    func hasReceiver(of kind: WebhookDeliveryRecord.Kind, clientID: String, _ connection: PostgresConnection) async throws -> Bool {
        let query: PostgresQuery = switch kind {
        case .event: "SELECT 1 FROM partner_webhooks WHERE client_id = \(clientID)"
        case .backchannelLogout:
            "SELECT 1 FROM partner_clients WHERE id = \(clientID) AND backchannel_logout_uri IS NOT NULL"
        case .cibaPing:
            "SELECT 1 FROM partner_clients WHERE id = \(clientID) AND ciba_notification_endpoint IS NOT NULL"
        }
        return try await !connection.rows(query, logger: logger).isEmpty
    }
}
