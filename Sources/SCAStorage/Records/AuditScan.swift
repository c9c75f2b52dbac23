/// Where a page of audit entries starts, and which way it reads: oldest first for an export
/// (the chain's order), newest first for a reader looking for what just happened.
public enum AuditScan: Sendable, Equatable {
    /// Oldest first, the entries above this sequence number (0: from the first).
    case after(Int64)
    /// Newest first, the entries below this sequence number (nil: from the newest).
    case before(Int64?)
}
