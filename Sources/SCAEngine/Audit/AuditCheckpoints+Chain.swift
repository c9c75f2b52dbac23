import Foundation
import SCACore
import SCAStorage

extension AuditCheckpoints {
    /// Entries read per query: bounded memory however long the trail.
    package static let pageSize = 1_000

    /// Walks the chain from its first entry, a page at a time, and checks it against the
    /// checkpoint `jws` (when given): its signature first, then that the chain still reaches
    /// its entry with the same hash.
    package func check(against jws: String?) async throws -> AuditChainStatus {
        var checkpoint: AuditChainStatus.Checkpoint?
        var expected: AuditCheckpoint?
        if let jws {
            do {
                let verified = try verify(jws)
                expected = verified
                checkpoint = .init(sequence: verified.sequence, time: verified.time)
            } catch let error as AuditCheckpointError {
                checkpoint = .init(problem: error.description)
            }
        }
        var verifier = AuditChainVerifier(personalMAC: personalMAC)
        var broken: AuditChainBreak?
        var hashAtCheckpoint: String?
        var after: Int64 = 0
        var archived: AuditChainStatus.Archived?
        if let cut = try await store.auditCut() {
            // The kept part starts where the archive ends: the cut's own checkpoint, signed when
            // it was made, vouches for the last archived entry's sequence and hash.
            // Only a cut's own statement will do (a periodic checkpoint of the same entry would
            // let whoever can write the database delete the oldest entries without an archive).
            let vouched = try? verify(cut.checkpoint)
            guard let vouched, vouched.archiveDigest != nil, vouched.sequence == cut.throughSequence,
                vouched.hash == cut.hash
            else {
                return AuditChainStatus(
                    intactEntries: 0, broken: "the cut after entry \(cut.throughSequence) is not vouched for by its signed checkpoint",
                    brokenAt: cut.throughSequence + 1, checkpoint: checkpoint,
                    archived: .init(throughSequence: cut.throughSequence, archive: cut.archive, cutAt: cut.cutAt))
            }
            archived = .init(throughSequence: cut.throughSequence, archive: cut.archive, cutAt: cut.cutAt)
            verifier = AuditChainVerifier(after: cut.throughSequence, hash: cut.hash, personalMAC: personalMAC)
            after = cut.throughSequence
            if let sequence = expected?.sequence, sequence <= cut.throughSequence {
                // A checkpoint of an archived entry is checked against the archive; at the cut
                // itself the cut's hash is the entry's.
                if sequence == cut.throughSequence { hashAtCheckpoint = cut.hash } else { expected = nil }
            }
        }
        pages: while true {
            let page = try await store.auditEntries(after: after, limit: Self.pageSize)
            for entry in page {
                if let found = verifier.check(entry) {
                    broken = found
                    break pages
                }
                if entry.sequence == expected?.sequence { hashAtCheckpoint = entry.hash }
                after = entry.sequence
            }
            if page.count < Self.pageSize { break }
        }
        if let expected, broken == nil,
            let mismatch = expected.mismatch(
                chainLength: verifier.count + (archived?.throughSequence ?? 0), hashAtSequence: hashAtCheckpoint)
        {
            checkpoint?.problem = mismatch.description
        }
        return AuditChainStatus(
            intactEntries: verifier.count, broken: broken?.description, brokenAt: broken?.sequence, checkpoint: checkpoint,
            archived: archived)
    }

    /// ``check(against:)`` with the checkpoint the server last wrote to `path`
    /// (`auditCheckpointFile`; nil: none configured). A configured file that cannot be read is
    /// a problem of its own: a checkpoint deleted is as telling as one contradicted.
    package func checkAgainstLastWritten(_ path: String?) async throws -> AuditChainStatus {
        guard let path else { return try await check(against: nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            var status = try await check(against: nil)
            status.checkpoint = .init(problem: "the checkpoint file \(path) cannot be read")
            return status
        }
        return try await check(against: String(decoding: data, as: UTF8.self))
    }
}
