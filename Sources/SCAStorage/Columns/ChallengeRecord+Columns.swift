import Foundation
import SCACore

extension ChallengeRecord: ColumnDecodable {
    /// A `challenges` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            userID: try columns.value("user_id"),
            operation: try columns.rawValue("operation"),
            verdict: try columns.rawValue("verdict"),
            requiredCategories: try columns.value("required_categories"),
            methods: try columns.rawValues("methods"),
            nonce: try columns.value("nonce"),
            transaction: try columns.optionalJSON("transaction_json"),
            transactionDigest: try columns.value("transaction_digest"),
            deviceID: try columns.value("device_id"),
            state: try columns.rawValue("state"),
            acceptedMethods: try columns.rawValues("accepted_methods"),
            rejectedMethods: try columns.rawValues("rejected_methods"),
            failedAttempts: try columns.value("failed_attempts"),
            createdAt: try columns.date("created_at"),
            expiresAt: try columns.date("expires_at"),
            completedAt: try columns.optionalDate("completed_at"),
            version: try columns.value("version"),
            decoy: try columns.optionalJSON("decoy_json"),
            pendingMethod: try columns.optionalRawValue("pending_method"),
            exemption: try columns.optionalRawValue("exemption"),
            extraCategories: try columns.rawValues("extra_categories")
        )
    }
}
