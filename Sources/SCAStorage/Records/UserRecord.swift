import Foundation
import SCACore

/// A user as stored. Secrets are never held in clear: password and PIN as scrypt PHC strings,
/// the TOTP seed sealed with the server key.
public struct UserRecord: Sendable, Equatable {
    public var id: String
    /// Lower-cased, unique.
    public var email: String
    public var phone: String?
    public var passwordHash: String?
    public var pinHash: String?
    /// The TOTP seed sealed with the server key (`SecretBox`), or nil when not enrolled.
    public var sealedTOTPSeed: [UInt8]?
    /// Whether one-time codes may be sent to `email` (an explicit enrolment, like a phone).
    public var emailOTPEnabled: Bool
    public var roles: [String]
    public var createdAt: Date
    public var lockout: LockoutState
    /// Name and custom attributes (v3-signup).
    public var profile: UserProfile
    /// How many of the user's passkeys are active (v3-proof-path): kept by the
    /// passkey operations, so a challenge knows whether to offer one without another read.
    /// Read-only here: creating or updating a user never writes it.
    public var activePasskeys = 0
    /// The E.164 number this user signs in with (v3-signup-phone): set when the user
    /// signed up with a phone number, unique among users. Unlike `phone` (where SMS codes go,
    /// shared by several users at times) it identifies the user.
    public var loginPhone: String?
    /// Set by a password reset proven with one element (v12-password-reset): when its
    /// cooling-off ends. While set, payments and changes are refused; an operator may clear it
    /// from that time on, never before, so the real owner has time to hear of the reset and
    /// object. Written only by ``SCAStore/resetPassword(_:)`` and
    /// ``SCAStore/liftRestriction(userID:restrictedUntil:)``.
    public var restrictedUntil: Date?

    public var isRestricted: Bool { restrictedUntil != nil }

    public init(
        id: String, email: String, phone: String? = nil, passwordHash: String? = nil,
        pinHash: String? = nil, sealedTOTPSeed: [UInt8]? = nil, emailOTPEnabled: Bool = false,
        roles: [String] = [], createdAt: Date, lockout: LockoutState = LockoutState(), profile: UserProfile = UserProfile(),
        loginPhone: String? = nil
    ) {
        self.profile = profile
        self.loginPhone = loginPhone
        self.id = id
        self.email = email
        self.phone = phone
        self.passwordHash = passwordHash
        self.pinHash = pinHash
        self.sealedTOTPSeed = sealedTOTPSeed
        self.emailOTPEnabled = emailOTPEnabled
        self.roles = roles
        self.createdAt = createdAt
        self.lockout = lockout
    }

    /// The methods this user can prove today, from what is enrolled.
    public var enrolledMethods: [AuthenticationMethod] {
        var methods: [AuthenticationMethod] = []
        if passwordHash != nil { methods.append(.password) }
        if pinHash != nil { methods.append(.pin) }
        if sealedTOTPSeed != nil { methods.append(.totp) }
        if phone != nil { methods.append(.smsOTP) }
        if emailOTPEnabled { methods.append(.emailOTP) }
        return methods
    }
}

/// Consecutive failed attempts and blocks of one user (RTS art. 4(3)(b)).
public struct LockoutState: Sendable, Equatable {
    /// Attempts counted since the last success or block, including those still being evaluated.
    public var failedAttempts: Int
    /// Temporary blocks since the last success.
    public var temporaryBlocks: Int
    /// End of the current temporary block, if any.
    public var lockedUntil: Date?
    public var permanentlyLocked: Bool
    /// The last TOTP time step accepted; a step is accepted once, and never an older one.
    public var lastTOTPStep: Int64?

    public init(
        failedAttempts: Int = 0, temporaryBlocks: Int = 0, lockedUntil: Date? = nil,
        permanentlyLocked: Bool = false, lastTOTPStep: Int64? = nil
    ) {
        self.failedAttempts = failedAttempts
        self.temporaryBlocks = temporaryBlocks
        self.lockedUntil = lockedUntil
        self.permanentlyLocked = permanentlyLocked
        self.lastTOTPStep = lastTOTPStep
    }
}

/// A change to a user's profile or credentials; nil fields are left alone.
public struct UserUpdate: Sendable, Equatable {
    public var email: String?
    public var phone: String?
    public var passwordHash: String?
    public var pinHash: String?
    public var sealedTOTPSeed: [UInt8]?
    public var emailOTPEnabled: Bool?
    /// Replaces the roles (v3-admin-keys: roles change through the admin API).
    public var roles: [String]?
    /// Replaces the whole profile (v3-signup).
    public var profile: UserProfile?
    /// Applies only when the stored user still meets this (compare-and-set);
    /// otherwise the store throws `StoreError.conflict("precondition")` and changes nothing.
    public var precondition: UserPrecondition?
    /// A new login phone (an operator's change), E.164; unique among users, else the
    /// store throws `StoreError.conflict("loginPhone")` and changes nothing.
    public var loginPhone: String?
    /// Set by a password reset proven with one element (v12-password-reset): when its
    /// cooling-off ends. While set, payments and changes are refused; an operator may clear it
    /// from that time on, never before, so the real owner has time to hear of the reset and
    /// object. Written only by ``SCAStore/resetPassword(_:)`` and
    /// ``SCAStore/liftRestriction(userID:restrictedUntil:)``.
    public var restrictedUntil: Date?

    /// Clears the authenticator app's seed (an operator's reset after a lost or replaced
    /// phone): codes of the old app are refused from then on, and the user sets up a new one.
    /// Wins over `sealedTOTPSeed`.
    public var removesAuthenticatorApp = false

    public var isRestricted: Bool { restrictedUntil != nil }

    public init(
        email: String? = nil, phone: String? = nil, passwordHash: String? = nil,
        pinHash: String? = nil, sealedTOTPSeed: [UInt8]? = nil, emailOTPEnabled: Bool? = nil, roles: [String]? = nil,
        profile: UserProfile? = nil, precondition: UserPrecondition? = nil, loginPhone: String? = nil
    ) {
        self.loginPhone = loginPhone
        self.profile = profile
        self.precondition = precondition
        self.email = email
        self.phone = phone
        self.passwordHash = passwordHash
        self.pinHash = pinHash
        self.sealedTOTPSeed = sealedTOTPSeed
        self.emailOTPEnabled = emailOTPEnabled
        self.roles = roles
    }
}
