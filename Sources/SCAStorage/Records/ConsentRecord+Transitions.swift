import Foundation
import SCACore

/// The pure moves of a consent; services decide with these and stores only save the result.
extension ConsentRecord {
    /// Moves to `next` at `now` if the status allows it (`ConsentStatus.canMove(to:)`); an open
    /// consent past its `expiresAt` can only become `Expired`.
    /// - Returns: false, changing nothing, when the move is not allowed.
    package mutating func move(to next: ConsentStatus, now: Date) -> Bool {
        if status.isOpen, now >= expiresAt, next != .expired { return false }
        guard status.canMove(to: next) else { return false }
        status = next
        updatedAt = now
        return true
    }

    /// `Expired` when it is still open past `expiresAt`.
    /// - Returns: whether it changed.
    package mutating func expireIfDue(now: Date) -> Bool {
        guard status.isOpen, now >= expiresAt else { return false }
        return move(to: .expired, now: now)
    }
}
