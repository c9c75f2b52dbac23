import Foundation
import SCACore

extension OperationRecord: ColumnDecodable {
    /// An `operations` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            userID: try columns.value("user_id"),
            clientID: try columns.value("client_id"),
            deviceID: try columns.value("device_id"),
            challengeID: try columns.value("challenge_id"),
            operation: try columns.rawValue("operation"),
            transaction: try columns.optionalJSON("transaction_json"),
            bindingMessage: try columns.value("binding_message"),
            status: try columns.rawValue("status"),
            rejectReason: try columns.optionalRawValue("reject_reason"),
            createdAt: try columns.date("created_at"),
            expiresAt: try columns.date("expires_at"),
            finishedAt: try columns.optionalDate("finished_at"),
            sealedToken: try columns.optionalBytes("sealed_token"),
            sealedNotification: try columns.optionalBytes("sealed_notification"),
            version: try columns.value("version")
        )
    }
}
