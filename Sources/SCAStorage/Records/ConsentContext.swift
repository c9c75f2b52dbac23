import SCACore

/// What the hosted consent page shows and decides on (``SCAStore/consentContext(id:)``): the
/// consent, its partner's name, its user, its challenge and the user's devices, in one read.
public struct ConsentContext: Sendable, Equatable {
    public var consent: ConsentRecord
    /// The partner client's display name; nil when the client is gone.
    public var clientName: String?
    /// The consent's user; nil when gone since.
    public var user: UserRecord?
    /// The consent's challenge; nil before it has one, or when it is gone.
    public var challenge: ChallengeRecord?
    /// The user's devices, removed ones included, oldest first, as ``SCAStore/devices(userID:)``
    /// reads them: the phone that may approve the consent is one of them.
    public var devices: [DeviceRecord]

    public init(
        consent: ConsentRecord, clientName: String?, user: UserRecord?, challenge: ChallengeRecord?, devices: [DeviceRecord]
    ) {
        self.consent = consent
        self.clientName = clientName
        self.user = user
        self.challenge = challenge
        self.devices = devices
    }
}
