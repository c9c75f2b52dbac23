import Foundation
import SCACore
import SCAStorage

/// The audit entries a filter matches as `sca-server audit export` writes them: one entry a
/// line, its canonical JSON (RFC 8785) with its hash, oldest first. Read a page at a time, so a
/// long trail is never in memory at once; the command line, the console and the admin API all
/// write through here, so their lines are the same bytes.
package struct AuditExport: Sendable {
    let store: any SCAStore
    let filter: AuditFilter

    package init(store: any SCAStore, filter: AuditFilter) {
        self.store = store
        self.filter = filter
    }

    /// Every entry at or after `since` (nil: all): `sca-server audit export --since`.
    package init(store: any SCAStore, since: Date?) {
        self.init(store: store, filter: AuditFilter(from: since))
    }

    /// The media type of the lines.
    package static let contentType = "application/jsonl"

    /// One entry's line, its newline included.
    package static func line(_ entry: AuditEntry) -> [UInt8] {
        JCS.canonicalize(entry.exportJSON) + [UInt8(ascii: "\n")]
    }

    /// Hands each page's lines to `write`, oldest page first.
    package func write(_ write: ([UInt8]) async throws -> Void) async throws {
        var after: Int64 = 0
        while true {
            let page = try await store.auditEntries(matching: filter, .after(after), limit: AuditCheckpoints.pageSize)
            guard let last = page.last else { return }
            try await write(page.flatMap(Self.line))
            after = last.sequence
            if page.count < AuditCheckpoints.pageSize { return }
        }
    }
}
