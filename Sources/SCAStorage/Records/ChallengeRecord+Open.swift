import Foundation
import SCACore

extension ChallengeRecord {
    /// Whether the challenge still takes proofs at `now`, decided once for every path: nil
    /// while it is pending and in time; otherwise the closed state a caller is told, `expired`
    /// for a pending challenge past its lifetime (whether or not that is written yet).
    package func closedState(at now: Date) -> ChallengeState? {
        guard state == .pending else { return state }
        return now < expiresAt ? nil : .expired
    }
}
