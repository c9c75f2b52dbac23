import Foundation
import SCACore

extension AuditEntry: ColumnDecodable {
    /// An `audit_entries` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            sequence: try columns.value("sequence"),
            draft: AuditEntryDraft(
                time: AuditEntry.date(millisecondsSince1970: try columns.value("time_ms")),
                event: try columns.value("event"),
                actor: try columns.value("actor"),
                userID: try columns.value("user_id"),
                deviceID: try columns.value("device_id"),
                challengeID: try columns.value("challenge_id"),
                sessionID: try columns.value("session_id"),
                clientAddress: try columns.value("client_address"),
                requestID: try columns.value("request_id"),
                outcome: try columns.value("outcome"),
                details: try columns.json("details"),
                personalDigest: try columns.value("personal_digest")),
            prevHash: try columns.value("prev_hash"),
            hash: try columns.value("hash"))
    }
}
