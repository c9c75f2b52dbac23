import Foundation

/// The answer to completing a recovery (``SCAStore/completeRecovery(codeDigest:usedPUKs:device:now:)``).
public enum RecoveryCompletion: Sendable, Equatable {
    /// The PUK is burnt, the device bound to the sheet's user, every other device of theirs
    /// removed and every session of theirs ended, in one transaction.
    case recovered(device: DeviceRecord, devicesRemoved: Int, sessionsEnded: Int)
    /// The PUK was burnt meanwhile by another recovery, or the sheet replaced: nothing changed.
    case pukUsed
}
