import Foundation
import SCACore

extension DeviceRecord: ColumnDecodable {
    /// A `devices` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            userID: try columns.value("user_id"),
            name: try columns.value("name"),
            platform: try columns.value("platform"),
            possessionKey: try columns.bytes("possession_key"),
            biometryKey: try columns.optionalBytes("biometry_key"),
            status: try columns.rawValue("status"),
            failCount: try columns.value("fail_count"),
            createdAt: try columns.date("created_at"),
            lastUsedAt: try columns.optionalDate("last_used_at")
        )
    }
}

extension ActivationCodeRecord: ColumnDecodable {
    /// An `activation_codes` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            lookupID: try columns.value("lookup_id"),
            codeHash: try columns.bytes("code_hash"),
            userID: try columns.value("user_id"),
            createdAt: try columns.date("created_at"),
            expiresAt: try columns.date("expires_at"),
            failedTries: try columns.value("failed_tries"),
            usedAt: try columns.optionalDate("used_at")
        )
    }
}

extension RecoverySheetRecord: ColumnDecodable {
    /// A `recovery_sheets` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            userID: try columns.value("user_id"),
            codeDigest: try columns.bytes("code_digest"),
            pukDigests: Self.unpackPUKDigests(try columns.bytes("puk_digests")),
            usedPUKs: try columns.value("used_puks"),
            lockout: try LockoutState(columns: columns),
            createdAt: try columns.date("created_at")
        )
    }
}
