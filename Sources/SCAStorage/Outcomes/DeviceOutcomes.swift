import Foundation

/// The answer to registering a device with an activation code.
public enum DeviceRegistration: Sendable, Equatable {
    /// The code was right and live: it is now used, and the device stored (bound to the code's user).
    case registered(DeviceRecord)
    /// No live code has this lookup id (unknown, used, expired, or void after too many tries).
    case codeInvalid
    /// The lookup id matched but the rest did not: one more try counted; `remaining` left
    /// before the code is void.
    case codeWrong(remaining: Int)
    /// The code's user has `maximumDevices` devices that are not removed already; the code
    /// stays unused.
    case deviceLimitReached
}
