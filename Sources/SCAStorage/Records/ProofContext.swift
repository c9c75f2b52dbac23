import SCACore

/// What checking a proof needs to read first (``SCAStore/proofContext(challengeID:)``): the
/// challenge, its user and the device it names, in one read.
public struct ProofContext: Sendable, Equatable {
    public var challenge: ChallengeRecord
    /// The challenge's user; nil for a decoy, a discoverable login, or a user gone since.
    public var user: UserRecord?
    /// The device the challenge names (whatever its owner or status: the caller checks both);
    /// nil when it names none or it is gone.
    public var device: DeviceRecord?

    public init(challenge: ChallengeRecord, user: UserRecord?, device: DeviceRecord?) {
        self.challenge = challenge
        self.user = user
        self.device = device
    }
}
