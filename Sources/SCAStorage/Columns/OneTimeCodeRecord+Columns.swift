import Foundation
import SCACore

extension OneTimeCodeRecord: ColumnDecodable {
    /// A `one_time_codes` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            challengeID: try columns.value("challenge_id"),
            method: try columns.rawValue("method"),
            codeHash: try columns.bytes("code_hash"),
            sentAt: try columns.date("sent_at"),
            expiresAt: try columns.date("expires_at"),
            sendCount: try columns.value("send_count"),
            used: try columns.value("used")
        )
    }
}
