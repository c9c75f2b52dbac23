import Foundation
import SCACore
import SCAStorage

/// One line of the console's user list.
package struct ConsoleUserSummary: Sendable, Equatable {
    package var userID: String
    /// Masked unless the operator may see it whole.
    package var email: String
    package var phone: String?
    package var status: ConsoleUserStatus
    package var methods: [AuthenticationMethod]
    package var createdAt: Date
    /// The newest completed SCA among the user's recent audit entries.
    package var lastAuthenticatedAt: Date?
}

/// Whether a user may sign in, as an operator reads it.
package enum ConsoleUserStatus: Sendable, Equatable {
    case active
    case temporarilyBlocked(until: Date)
    case permanentlyBlocked

    init(_ lockout: LockoutState, now: Date) {
        if lockout.permanentlyLocked {
            self = .permanentlyBlocked
        } else if let until = lockout.lockedUntil, until > now {
            self = .temporarilyBlocked(until: until)
        } else {
            self = .active
        }
    }

    package var isBlocked: Bool { self != .active }
}

/// The console's user page: everything an operator needs on a call with the customer, and never
/// a secret.
package struct ConsoleUserDetail: Sendable {
    package var summary: ConsoleUserSummary
    package var roles: [String]
    /// Failed attempts since the last success, and temporary blocks so far.
    package var failedAttempts: Int
    package var temporaryBlocks: Int
    /// Set while a password reset proven with one element holds payments and changes: from
    /// then on the operator may lift the hold.
    package var restrictedUntil: Date?
    package var hasPassword: Bool
    package var hasPIN: Bool
    package var hasTOTP: Bool
    /// Nil when the operator may not read devices (`devices:read`).
    package var devices: [DeviceResponse]?
    package var passkeys: [PasskeyResponse]?
    /// Sessions still open (not ended, not idle): the user's own and partners'.
    package var sessions: [SessionRecord]
    /// Partners the user signed in to, newest first.
    package var partnerSignIns: [AuthorizationGrantRecord]
    /// The user's newest audit entries, newest first.
    package var timeline: [AuditEntry]
}
