import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Status changes with their webhook event (v3-webhook-events): the compare-and-set
// and the outbox write share one transaction; whether the event is written is decided by the
// pure `WebhookDeliveryRecord.toEnqueue`.
extension PostgresStore {
    package func updateOperation(
        _ operation: OperationRecord, expectedVersion: Int, enqueueing event: WebhookDeliveryRecord?
    ) async throws -> Bool {
        try await stored(Self.operationUpdate(operation, expectedVersion: expectedVersion), enqueueing: event)
    }

    package func updateConsent(
        _ consent: ConsentRecord, expectedVersion: Int, enqueueing event: WebhookDeliveryRecord?,
        auditing entry: AuditEntryDraft?
    ) async throws -> Bool {
        try await stored(Self.consentUpdate(consent, expectedVersion: expectedVersion), enqueueing: event, auditing: entry)
    }

    package func overdueConsents(now: Date, limit: Int) async throws -> [ConsentRecord] {
        try await rows(
            """
            SELECT * FROM consents WHERE status IN ('Created', 'Started') AND expires_at <= \(now.unixSeconds)
            ORDER BY expires_at, id LIMIT \(limit)
            """
        ).map(ConsentRecord.init(row:))
    }

    /// Runs the compare-and-set `update` and, in the same transaction, writes `event` when the
    /// decision says so and appends `entry` when the update won (last: the audit append holds
    /// its lock until the transaction ends).
    private func stored(
        _ update: PostgresQuery, enqueueing event: WebhookDeliveryRecord?, auditing entry: AuditEntryDraft? = nil
    ) async throws -> Bool {
        let logger = self.logger
        do {
            return try await transaction { [self] connection in
                let stored = try await connection.rows(update, logger: logger).count == 1
                guard stored else { return false }
                if let event {
                    let registered = try await !connection.rows(
                        "SELECT 1 FROM partner_webhooks WHERE client_id = \(event.clientID)", logger: logger
                    ).isEmpty
                    if let write = WebhookDeliveryRecord.toEnqueue(event, statusStored: stored, webhookRegistered: registered) {
                        _ = try await connection.rows(Self.deliveryInsert(write), logger: logger)
                    }
                }
                if let entry { _ = try await appendAuditEntries([entry], connection) }
                return stored
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }
}
