import Foundation

/// What walking the audit chain from its first entry found, checked against a signed checkpoint
/// when there is one: what `sca-server audit verify` prints, the console's audit page shows and
/// `GET /admin/v1/audit/verify` answers.
package struct AuditChainStatus: Codable, Sendable, Equatable {
    /// Entries found intact from the first: all of them when nothing is broken.
    package var intactEntries: Int64
    /// The first broken link, described; nil when every link holds.
    package var broken: String?
    /// The sequence number where the chain breaks.
    package var brokenAt: Int64?
    /// The checkpoint the chain was checked against; nil when there is none to check (no
    /// `auditCheckpointFile`).
    package var checkpoint: Checkpoint?
    /// Where the trail was cut after archiving its oldest entries; the walk then starts after
    /// it. Nil when it was never cut.
    package var archived: Archived?

    package init(
        intactEntries: Int64, broken: String? = nil, brokenAt: Int64? = nil, checkpoint: Checkpoint? = nil,
        archived: Archived? = nil
    ) {
        self.intactEntries = intactEntries
        self.broken = broken
        self.brokenAt = brokenAt
        self.checkpoint = checkpoint
        self.archived = archived
    }

    package struct Archived: Codable, Sendable, Equatable {
        /// The last archived entry: the first one kept is the next.
        package var throughSequence: Int64
        /// The archive's file name.
        package var archive: String
        package var cutAt: Date
    }

    /// The chain links up and holds everything the checkpoint saw.
    package var isIntact: Bool { broken == nil && checkpoint?.problem == nil }

    package struct Checkpoint: Codable, Sendable, Equatable {
        /// The entry it saw last, and when it was taken; nil when the checkpoint itself could
        /// not be read or its signature does not hold.
        package var sequence: Int64?
        package var time: Date?
        /// What is wrong: the checkpoint unreadable, unsigned by this server, or contradicted
        /// by the chain (newest entries cut, or an entry rewritten); nil when all holds.
        package var problem: String?

        package init(sequence: Int64? = nil, time: Date? = nil, problem: String? = nil) {
            self.sequence = sequence
            self.time = time
            self.problem = problem
        }
    }
}
