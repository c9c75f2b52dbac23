import Foundation
import SCACore

extension AdminKeyRecord {
    /// What a presented key may do, decided on the stored record alone.
    package enum Verdict: Sendable, Equatable {
        /// The hash matches and the key is not revoked.
        case admitted
        /// Wrong secret for this id, or revoked: the caller is not authenticated.
        case refused
    }

    /// Compares the presented key's hash in constant time, then looks at revocation; the same
    /// work is done whatever the outcome.
    package func verdict(presentedHash: [UInt8]) -> Verdict {
        let matches = ConstantTime.equals(presentedHash, keyHash)
        return matches && revokedAt == nil ? .admitted : .refused
    }

    /// Whether the key holds `scope`.
    package func allows(_ scope: AdminScope) -> Bool {
        scopes.contains(scope)
    }

    /// How stale `lastUsedAt` may get: recording every use would turn every admin request
    /// into a write; once a minute is precise enough to see which keys are in use.
    package static let useRecordingInterval: TimeInterval = 60

    /// Whether a use at `now` should be written: never used, or last written a minute ago or more.
    package func shouldRecordUse(at now: Date) -> Bool {
        guard let lastUsedAt else { return true }
        return now.timeIntervalSince(lastUsedAt) >= Self.useRecordingInterval
    }

    /// Whether `name` may name a key: 1 to 64 ASCII letters, digits, `.`, `_` or `-`, so that
    /// it reads the same in a list, a log line and the audit trail's `key:<name>`.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || [".", "_", "-"].contains($0)
            }
    }
}
