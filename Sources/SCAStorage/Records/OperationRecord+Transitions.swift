import Foundation
import SCACore

/// The pure moves of an operation; services decide with these and stores only save the result
/// (compare-and-set on `version`), so of concurrent approve, reject, cancel and expiry exactly
/// one final status is stored.
extension OperationRecord {
    /// Moves a pending operation to the final `status` at `now`. Past `expiresAt` only
    /// `expired` is possible: a late approval is no approval.
    /// - Returns: false, changing nothing, when it is final already, `status` is `pending`, or
    ///   it has expired and `status` is not `expired`.
    package mutating func finish(
        as status: OperationStatus, reason: OperationRejectReason? = nil, sealedToken: [UInt8]? = nil, now: Date
    ) -> Bool {
        guard self.status == .pending, status.isFinal else { return false }
        if now >= expiresAt, status != .expired { return false }
        if status == .expired, now < expiresAt { return false }
        self.status = status
        self.rejectReason = status == .rejected ? reason : nil
        self.sealedToken = status == .approved ? sealedToken : nil
        finishedAt = now
        return true
    }

    /// `expired` when it is still pending at or past `expiresAt`.
    /// - Returns: whether it changed.
    package mutating func expireIfDue(now: Date) -> Bool {
        finish(as: .expired, now: now)
    }
}
