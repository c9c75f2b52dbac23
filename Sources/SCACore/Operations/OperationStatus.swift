/// Where a decoupled operation stands. `pending` is the only open status; each of
/// the others is final, and an operation reaches exactly one of them.
public enum OperationStatus: String, Codable, Sendable, CaseIterable {
    /// Waiting for the user's phone.
    case pending
    /// Approved on the bound device with its device key and biometric key.
    case approved
    /// Refused by the user on the phone (with a ``OperationRejectReason``).
    case rejected
    /// Too many wrong signatures, or the device was blocked while approving.
    case failed
    /// Withdrawn by whoever created it.
    case canceled
    /// Nobody answered before `expiresAt`.
    case expired

    /// Every status but `pending`.
    public var isFinal: Bool { self != .pending }
}
