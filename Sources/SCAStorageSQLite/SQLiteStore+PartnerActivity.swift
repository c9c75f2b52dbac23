import Foundation
import GRDB
import SCACore
import SCAStorage

// What the console's partners page reads of each client (v13-partner-health).
extension SQLiteStore {
    package func failedWebhookDeliveries(clientID: String, limit: Int) async throws -> [WebhookDeliveryRecord] {
        try await read { db in
            try db.cachedStatement(
                sql: """
                    SELECT * FROM webhook_deliveries
                    WHERE client_id = ? AND (status = 'abandoned' OR (status = 'pending' AND attempts > 0))
                    ORDER BY created_at DESC, id DESC LIMIT ?
                    """
            ).fetchAll(WebhookDeliveryRecord.self, arguments: [clientID, limit])
        }
    }

    package func partnerActivity(clientID: String, activeSince: Date) async throws -> PartnerActivity {
        try await read { db in
            var activity = PartnerActivity()
            activity.openSessions = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM sessions WHERE client_id = ? AND revoked_at IS NULL AND last_used_at >= ?"),
                arguments: [clientID, activeSince.unixSeconds]) ?? 0
            activity.grantedUsers = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(DISTINCT user_id) FROM authorization_grants WHERE client_id = ?"),
                arguments: [clientID]) ?? 0
            for row in try Row.fetchAll(
                db.cachedStatement(sql: "SELECT status, COUNT(*) AS n FROM consents WHERE client_id = ? GROUP BY status"),
                arguments: [clientID])
            {
                guard let status = ConsentStatus(rawValue: row["status"]) else { continue }
                activity.consents[status] = row["n"]
            }
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT status, COUNT(*) AS n, SUM(CASE WHEN attempts > 0 THEN 1 ELSE 0 END) AS failed
                        FROM webhook_deliveries WHERE client_id = ? GROUP BY status
                        """),
                arguments: [clientID])
            {
                guard let status = WebhookDeliveryRecord.Status(rawValue: row["status"]) else { continue }
                activity.deliveries[status] = row["n"]
                if status == .pending { activity.retrying = row["failed"] }
            }
            return activity
        }
    }
}
