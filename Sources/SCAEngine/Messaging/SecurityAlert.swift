import Foundation

/// A change to what protects an account, which its owner hears of at once (RTS art. 22–24:
/// credentials are bound, renewed and deactivated as safely as they are used), whoever made
/// the change: the user, an operator, or someone who should not have.
package enum SecurityAlert: Sendable, Equatable {
    case deviceBound(name: String)
    case passkeyAdded(name: String)
    case passwordChanged
    case pinChanged
    case emailChanged
    case phoneChanged
    case totpEnrolled
    /// The bank removed the authenticator app (a lost or replaced phone).
    case totpRemoved
    /// A recovery sheet bound `deviceName` and removed every other device.
    case recoveryUsed(deviceName: String)
    /// A new sheet replaced the earlier one.
    case recoverySheetIssued
    /// Recovery with the sheet is blocked after failed attempts: until then, or for good (nil).
    case recoveryBlocked(until: Date?)
    /// A forgotten password was replaced with two elements other than knowledge.
    case passwordReset
    /// A forgotten password was replaced with one element: payments and changes are held, and
    /// the bank lifts the hold no earlier than `until`.
    case passwordResetRestricted(until: Date)
    /// An operator lifted that hold.
    case restrictionLifted

    /// The alert's name in the audit trail: its catalogue key's last part (`passwordChanged`).
    var name: String { String(catalogueKey.dropFirst("message.alert.".count)) }

    /// The catalogue key of the sentence that names the event.
    var catalogueKey: String {
        switch self {
        case .deviceBound: "message.alert.deviceBound"
        case .passkeyAdded: "message.alert.passkeyAdded"
        case .passwordChanged: "message.alert.passwordChanged"
        case .pinChanged: "message.alert.pinChanged"
        case .emailChanged: "message.alert.emailChanged"
        case .phoneChanged: "message.alert.phoneChanged"
        case .totpEnrolled: "message.alert.totpEnrolled"
        case .totpRemoved: "message.alert.totpRemoved"
        case .recoveryUsed: "message.alert.recoveryUsed"
        case .recoverySheetIssued: "message.alert.recoverySheetIssued"
        case .recoveryBlocked(let until): until == nil ? "message.alert.recoveryBlocked" : "message.alert.recoveryBlockedUntil"
        case .passwordReset: "message.alert.passwordReset"
        case .passwordResetRestricted: "message.alert.passwordResetRestricted"
        case .restrictionLifted: "message.alert.restrictionLifted"
        }
    }
}
