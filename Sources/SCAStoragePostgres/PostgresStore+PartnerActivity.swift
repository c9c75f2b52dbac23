import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// What the console's partners page reads of each client (v13-partner-health).
extension PostgresStore {
    package func failedWebhookDeliveries(clientID: String, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await rows(
            """
            SELECT * FROM webhook_deliveries
            WHERE client_id = \(clientID) AND (status = 'abandoned' OR (status = 'pending' AND attempts > 0))
            ORDER BY created_at DESC, id DESC LIMIT \(limit)
            """
        ).map(WebhookDeliveryRecord.init(row:))
    }

    package func partnerActivity(clientID: String, activeSince: Date) async throws -> PartnerActivity {
        var activity = PartnerActivity()
        for row in try await rows(
            """
            SELECT
                (SELECT COUNT(*) FROM sessions
                 WHERE client_id = \(clientID) AND revoked_at IS NULL AND last_used_at >= \(activeSince.unixSeconds)),
                (SELECT COUNT(DISTINCT user_id) FROM authorization_grants WHERE client_id = \(clientID))
            """)
        {
            let (sessions, users) = try row.decode((Int64, Int64).self)
            activity.openSessions = Int(sessions)
            activity.grantedUsers = Int(users)
        }
        for row in try await rows("SELECT status, COUNT(*) FROM consents WHERE client_id = \(clientID) GROUP BY status") {
            let (status, count) = try row.decode((String, Int64).self)
            if let status = ConsentStatus(rawValue: status) { activity.consents[status] = Int(count) }
        }
        for row in try await rows(
            """
            SELECT status, COUNT(*), COUNT(*) FILTER (WHERE attempts > 0)
            FROM webhook_deliveries WHERE client_id = \(clientID) GROUP BY status
            """)
        {
            let (status, count, failed) = try row.decode((String, Int64, Int64).self)
            guard let status = WebhookDeliveryRecord.Status(rawValue: status) else { continue }
            activity.deliveries[status] = Int(count)
            if status == .pending { activity.retrying = Int(failed) }
        }
        return activity
    }
}
