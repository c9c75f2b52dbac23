import Foundation

extension PartnerWebhookRecord: ColumnDecodable {
    /// A `partner_webhooks` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            clientID: try columns.value("client_id"),
            url: try columns.value("url"),
            sealedSecret: try columns.bytes("sealed_secret"),
            createdAt: try columns.date("created_at")
        )
    }
}

extension WebhookDeliveryRecord: ColumnDecodable {
    /// A `webhook_deliveries` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            kind: try columns.rawValue("kind"),
            clientID: try columns.value("client_id"),
            subjectID: try columns.value("subject_id"),
            body: try columns.value("body"),
            status: try columns.rawValue("status"),
            attempts: try columns.value("attempts"),
            nextAttemptAt: try columns.date("next_attempt_at"),
            leaseUntil: try columns.optionalDate("lease_until"),
            lastHTTPStatus: try columns.value("last_http_status"),
            createdAt: try columns.date("created_at"),
            finishedAt: try columns.optionalDate("finished_at"),
            version: try columns.value("version")
        )
    }
}
