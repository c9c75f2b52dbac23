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
    /// Each partner the user signed in to or that holds something of theirs.
    package var partners: [ConsolePartnerAccess]
    /// The user's newest audit entries, newest first.
    package var timeline: [AuditEntry]
    /// The amount and payee of each approved payment in the timeline, by the entry's sequence
    /// number: what the user saw and approved (the challenge's dynamic linking).
    package var payments: [Int64: Transaction]
}

/// A partner's hold on one user, as the user page lists it.
package struct ConsolePartnerAccess: Sendable, Equatable {
    package var clientID: String
    /// The client's name, while it is registered.
    package var name: String?
    /// The newest sign-in of the user to this partner.
    package var lastSignIn: Date?
    package var openSessions = 0
    /// Consents the partner still waits on.
    package var openConsents = 0

    /// Whether there is anything to take back.
    package var holdsAccess: Bool { openSessions > 0 || openConsents > 0 }
}

/// One page of the console's user search.
package struct ConsoleSearchPage: Sendable, Equatable {
    package var users: [ConsoleUserSummary]
    /// The user id the next page starts after; nil on the last page.
    package var next: String?
}
