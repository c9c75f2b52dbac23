import Foundation
import SCAStorage

/// How far the audit trail has gone out to the configured sink, and which instance sends it.
///
/// One instance at a time holds the lease and sends, in sequence order, from the entry after
/// `sent`; it moves `sent` only after the sink took the batch, so a crash or a failed send
/// sends the same entries again (at least once, never out of order). A lease that was not
/// renewed in time passes to the next instance that asks.
package struct AuditStreamState: RiskStateValue {
    package static let keyPrefix = "audit-stream"

    /// The last sequence the sink took (0: none yet).
    package var sent: Int64 = 0
    package var holder: String?
    package var leaseUntil: Date?

    package init() {}

    /// Takes or renews the lease for `instance` until `until`.
    /// - Returns: where to send from (the last sequence sent), nil when another instance holds
    ///   a lease still running.
    package mutating func claim(by instance: String, at now: Date, until: Date) -> Int64? {
        if let holder, holder != instance, let leaseUntil, leaseUntil > now { return nil }
        // Renewed only once half of it has run: a pass a second needs no write a second.
        if holder == instance, let leaseUntil, leaseUntil.timeIntervalSince(now) > until.timeIntervalSince(now) / 2 {
            return sent
        }
        holder = instance
        leaseUntil = until
        return sent
    }

    /// Records that the sink took the entries through `sequence`, when `instance` still holds
    /// the lease and nobody moved the cursor since `from`.
    /// - Returns: whether it was recorded.
    package mutating func advance(from: Int64, to sequence: Int64, by instance: String) -> Bool {
        guard holder == instance, sent == from, sequence > sent else { return false }
        sent = sequence
        return true
    }
}
