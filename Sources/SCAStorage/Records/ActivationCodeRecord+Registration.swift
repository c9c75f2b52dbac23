import Foundation
import SCACore

/// The steps of registering a device with an activation code, as pure code. A backend loads
/// the code by lookup id, locked (no code at all is `codeInvalid`), and asks `present`; for a
/// right code it loads the statuses of the owner's devices, the owner locked, and asks
/// `register`; it then stores the code's `failedTries` and `usedAt`, and the device if one is
/// returned. So the rules are written once whatever the database.
extension ActivationCodeRecord {
    /// Whether the code can still be presented: unused, unexpired (expiry is exclusive) and with
    /// fewer than `maximumTries` wrong tries.
    package func isLive(now: Date, maximumTries: Int) -> Bool {
        usedAt == nil && expiresAt > now && failedTries < maximumTries
    }

    /// Judges a presented code. Nil means the code is live and right: go on to `register`.
    /// A wrong code counts one more try here (store `failedTries`); a dead code is unchanged.
    package mutating func present(codeHash: [UInt8], now: Date, maximumTries: Int) -> DeviceRegistration? {
        guard isLive(now: now, maximumTries: maximumTries) else { return .codeInvalid }
        guard ConstantTime.equals(self.codeHash, codeHash) else {
            failedTries += 1
            return .codeWrong(remaining: max(0, maximumTries - failedTries))
        }
        return nil
    }

    /// Binds `device` to the code's user unless that user already has `maximumDevices` devices
    /// that are not removed; a registration marks the code used (store `usedAt`), a refusal
    /// leaves it as it was.
    /// - Parameter ownerDevices: the statuses of every device of the code's user.
    package mutating func register(
        _ device: DeviceRecord, ownerDevices: [DeviceStatus], maximumDevices: Int, now: Date
    ) -> DeviceRegistration {
        if ownerDevices.filter({ $0 != .removed }).count >= maximumDevices {
            return .deviceLimitReached
        }
        var stored = device
        stored.userID = userID
        usedAt = now
        return .registered(stored)
    }
}
