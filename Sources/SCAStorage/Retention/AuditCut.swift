import Foundation

/// Where the audit trail was cut after its oldest entries were archived: entries up to and
/// including `throughSequence` left the database for the file `archive`, and the first entry
/// kept links to `hash`. The signed checkpoint of that last archived entry (`checkpoint`, a
/// compact JWS) proves the kept part starts where the archive ends, so a verification of what
/// is kept still proves it whole.
public struct AuditCut: Sendable, Equatable {
    public var throughSequence: Int64
    /// The hash of the last archived entry.
    public var hash: String
    /// The signed checkpoint of that entry.
    public var checkpoint: String
    /// The archive's file name, as the operator will look for it.
    public var archive: String
    public var cutAt: Date

    public init(throughSequence: Int64, hash: String, checkpoint: String, archive: String, cutAt: Date) {
        self.throughSequence = throughSequence
        self.hash = hash
        self.checkpoint = checkpoint
        self.archive = archive
        self.cutAt = cutAt
    }
}
