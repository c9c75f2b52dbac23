import Foundation

/// A user's recovery sheet as stored (v10-recovery-sheets): a long code that names the sheet
/// and a short list of single-use PUKs, each only as a keyed digest, used in order. One sheet
/// per user; a new one replaces the old, whose code and PUKs stop working at once.
///
/// A recovery proves possession of the sheet (the code and the next PUK) on top of knowledge,
/// so its failures count on the sheet's own counters, with the same rules as a sign-in's.
public struct RecoverySheetRecord: Sendable, Equatable {
    public var userID: String
    /// The keyed digest of the canonical code: unique, the key a recovery finds the sheet by.
    public var codeDigest: [UInt8]
    /// The keyed digest of each PUK, in the order they are to be used.
    public var pukDigests: [[UInt8]]
    /// How many PUKs are burnt: the next to use is `pukDigests[usedPUKs]`.
    public var usedPUKs: Int
    public var lockout: LockoutState
    public var createdAt: Date

    public init(
        userID: String, codeDigest: [UInt8], pukDigests: [[UInt8]], usedPUKs: Int = 0,
        lockout: LockoutState = LockoutState(), createdAt: Date
    ) {
        self.userID = userID
        self.codeDigest = codeDigest
        self.pukDigests = pukDigests
        self.usedPUKs = usedPUKs
        self.lockout = lockout
        self.createdAt = createdAt
    }

    /// The digest the next PUK must have; nil when every PUK is used (the sheet recovers nothing).
    public var nextPUKDigest: [UInt8]? {
        usedPUKs < pukDigests.count ? pukDigests[usedPUKs] : nil
    }

    public var puksLeft: Int { max(0, pukDigests.count - usedPUKs) }

    /// The digests as one column: fixed-size digests one after the other.
    package var packedPUKDigests: [UInt8] { pukDigests.flatMap { $0 } }

    /// The digests of a packed column, each `size` bytes.
    package static func unpackPUKDigests(_ packed: [UInt8], size: Int = 32) -> [[UInt8]] {
        stride(from: 0, to: packed.count - packed.count % size, by: size).map { Array(packed[$0..<$0 + size]) }
    }
}
