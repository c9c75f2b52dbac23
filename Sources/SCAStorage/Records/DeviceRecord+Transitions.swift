import Foundation
import SCACore

/// The device-status rules themselves, as pure transitions of `DeviceRecord`. Every backend
/// reads the device under its own lock, applies one of these, and writes status and failure
/// count back, so the rules are written once whatever the database.
extension DeviceRecord {
    /// Moves the device to `status`. A removed device stays removed (removal is final). Moving
    /// to `active` clears `failCount`; moving to `blocked` or `removed` keeps it.
    package mutating func setStatus(_ status: DeviceStatus) {
        if self.status == .removed { return }
        self.status = status
        if status == .active { failCount = 0 }
    }

    /// Counts one failed signature whatever the status; only an active device becomes blocked
    /// when the count reaches `maximumFailures`, so a removed device stays removed.
    package mutating func recordFailure(maximumFailures: Int) {
        failCount += 1
        if status == .active && failCount >= maximumFailures {
            status = .blocked
        }
    }
}
