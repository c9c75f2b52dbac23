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
            extraCategories: try columns.rawValues("extra_categories"),
            usedSignatures: try columns.hashes("used_signature_hashes"),
            delegation: try columns.optionalJSON("delegation_json")
        )
    }
}

extension ChallengeRecord {
    /// ``usedSignatures`` as the one binary column both backends store (read back by
    /// ``ColumnReader/hashes(_:)``).
    /// - Throws: `EncodingError` for a hash that is not 32 bytes: it could not be read back.
    package func usedSignatureColumn() throws -> [UInt8] {
        guard usedSignatures.allSatisfy({ $0.count == 32 }) else {
            throw EncodingError.invalidValue(
                usedSignatures, .init(codingPath: [], debugDescription: "a used signature's hash is not 32 bytes"))
        }
        return Array(usedSignatures.joined())
    }
}
