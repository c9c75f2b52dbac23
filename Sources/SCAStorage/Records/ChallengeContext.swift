/// What opening a challenge needs to read first (``SCAStore/challengeContext(user:deviceID:)``):
/// the user a request names and the device it names, in one read.
public struct ChallengeContext: Sendable, Equatable {
    /// nil for an unknown user (a decoy) or when the request names none.
    public var user: UserRecord?
    /// The device named (whatever its owner or status: the caller checks both); nil when the
    /// request names none or there is no such device.
    public var device: DeviceRecord?

    public init(user: UserRecord?, device: DeviceRecord?) {
        self.user = user
        self.device = device
    }
}
