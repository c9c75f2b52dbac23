import Foundation
import SCACore

extension AdminKeyRecord: ColumnDecodable {
    /// An `admin_keys` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            name: try columns.value("name"),
            scopes: try columns.rawValues("scopes"),
            keyHash: try columns.bytes("key_hash"),
            createdAt: try columns.date("created_at"),
            lastUsedAt: try columns.optionalDate("last_used_at"),
            revokedAt: try columns.optionalDate("revoked_at")
        )
    }
}
