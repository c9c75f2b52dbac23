import Crypto
import Foundation
import SCACore
import SCAStorage

/// Keeps the database from growing without end: purges what no check needs any more
/// (``RetentionSettings``), and archives the audit trail's oldest entries to a file before it
/// cuts them, with a signed checkpoint at the cut so that what stays still proves whole.
///
/// Every instance on a shared database may run the passes: the purges delete what is there,
/// and a cut happens once (the store refuses a cut that another instance made first; the
/// loser's archive file, the same entries, stays beside the winner's).
package struct RetentionService: EngineService, Sendable {
    package let context: EngineContext
    let checkpoints: AuditCheckpoints

    package init(context: EngineContext, checkpoints: AuditCheckpoints) {
        self.context = context
        self.checkpoints = checkpoints
    }

    /// The plan a pass at `now` follows.
    package func plan(at now: Date) -> RetentionPlan {
        let settings = configuration.retention
        return RetentionPlan(
            challengesEndedBefore: now.addingTimeInterval(-settings.challenges),
            sessionsEndedBefore: now.addingTimeInterval(-settings.sessions),
            deliveriesFinishedBefore: now.addingTimeInterval(-settings.webhookDeliveries),
            activationCodesEndedBefore: now.addingTimeInterval(-settings.activationCodes), now: now)
    }

    /// One pass: purges (recorded when it deleted anything), then archives the audit trail when
    /// `audit.retention` is set.
    package func pass() async throws {
        try await purge()
        if configuration.retention.audit != nil { try await archiveAudit() }
    }

    /// Deletes what the plan names, until a batch comes back short of the batch size (a
    /// backlog goes over several writes, never one long one).
    @discardableResult
    package func purge() async throws -> RetentionReport {
        let plan = plan(at: runtime.now())
        var total = RetentionReport()
        for _ in 0..<100 {
            let report = try await store.purge(plan)
            total.add(report)
            if report.total < plan.batchSize { break }
        }
        if total.total > 0 {
            await audit.record(.retentionPurged, details: total.byKind)
        }
        return total
    }

    /// Archives the entries older than `audit.retention` and cuts them from the database. The
    /// newest entry always stays, so the chain's head is in the database.
    /// - Returns: the cut made, nil when there was nothing to archive or another instance cut
    ///   first.
    @discardableResult
    package func archiveAudit() async throws -> AuditCut? {
        guard let age = configuration.retention.audit else { return nil }
        let now = runtime.now()
        let previous = try await store.auditCut()
        guard
            let through = try await store.auditEntries(
                matching: AuditFilter(to: now.addingTimeInterval(-age)), .before(nil), limit: 1
            ).first,
            through.sequence > (previous?.throughSequence ?? 0),
            let newest = try await store.newestAuditEntry(), newest.sequence > through.sequence
        else { return nil }
        let first = (previous?.throughSequence ?? 0) + 1
        let directory = URL(fileURLWithPath: configuration.auditArchiveDirectory, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = "audit-\(first)-\(through.sequence).jsonl"
        let file = directory.appendingPathComponent(name)
        let partial = directory.appendingPathComponent(name + ".partial")
        let digest = try await write(from: first, through: through.sequence, to: partial)
        let jws = try checkpoints.signCut(at: through, archiveDigest: digest)
        let cut = AuditCut(throughSequence: through.sequence, hash: through.hash, checkpoint: jws, archive: name, cutAt: now)
        // The archive is whole on disk before a single entry leaves the database.
        _ = try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: partial, to: file)
        try Data((jws + "\n").utf8).write(to: directory.appendingPathComponent(name + ".checkpoint"), options: .atomic)
        guard let removed = try await store.cutAuditTrail(cut) else {
            // Another instance cut first (its own archive names the same entries).
            return nil
        }
        await audit.record(
            .auditArchived, details: ["through": "\(through.sequence)", "entries": "\(removed)", "archive": name])
        return cut
    }

    /// Writes the entries `first...through` as export lines to `url`, a page at a time, and
    /// flushes them to disk.
    /// - Returns: the file's SHA-256, in hex.
    private func write(from first: Int64, through: Int64, to url: URL) async throws -> String {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw RetentionError("cannot create the audit archive \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var after = first - 1
        var expected = first
        var digest = SHA256()
        while after < through {
            let page = try await store.auditEntries(after: after, limit: AuditCheckpoints.pageSize)
                .filter { $0.sequence <= through }
            guard let last = page.last else { break }
            for entry in page {
                // A gap here is a chain already broken: archiving it would hide where.
                guard entry.sequence == expected else {
                    throw RetentionError("audit entry \(expected) is missing; run `sca-server audit verify`")
                }
                expected += 1
            }
            let lines = page.flatMap(AuditExport.line)
            digest.update(data: lines)
            try handle.write(contentsOf: lines)
            after = last.sequence
        }
        guard expected == through + 1 else {
            throw RetentionError("audit entries \(expected)...\(through) are missing; run `sca-server audit verify`")
        }
        try handle.synchronize()
        return digest.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

extension RetentionReport {
    mutating func add(_ other: RetentionReport) {
        challenges += other.challenges
        sessions += other.sessions
        refreshTokens += other.refreshTokens
        consumedTokens += other.consumedTokens
        rateEvents += other.rateEvents
        webhookDeliveries += other.webhookDeliveries
        activationCodes += other.activationCodes
        unknownAddresses += other.unknownAddresses
    }
}
