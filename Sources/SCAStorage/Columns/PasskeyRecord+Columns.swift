import Foundation
import SCACore

extension PasskeyRecord: ColumnDecodable {
    /// A `passkeys` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            userID: try columns.value("user_id"),
            credentialID: try columns.bytes("credential_id"),
            publicKey: try columns.bytes("public_key"),
            signCount: try columns.value("sign_count"),
            backupEligible: try columns.value("backup_eligible"),
            backedUp: try columns.value("backed_up"),
            aaguid: try columns.bytes("aaguid"),
            attestationType: try columns.value("attestation_type"),
            attestationFormat: try columns.value("attestation_format"),
            name: try columns.value("name"),
            status: try columns.rawValue("status"),
            createdAt: try columns.date("created_at"),
            lastUsedAt: try columns.optionalDate("last_used_at")
        )
    }
}
