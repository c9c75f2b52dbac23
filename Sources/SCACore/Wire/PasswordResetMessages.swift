import Foundation

/// `POST /v1/password-reset`, with the token of a completed `password_reset` challenge: the new
/// password, and, beside an e-mail or SMS code, the recovery sheet's code and next PUK.
package struct PasswordResetRequest: Codable, Sendable, Equatable {
    package var password: String
    package var recoveryCode: String?
    package var puk: String?

    package init(password: String, recoveryCode: String? = nil, puk: String? = nil) {
        self.password = password
        self.recoveryCode = recoveryCode
        self.puk = puk
    }
}

/// What a password reset earned.
public enum PasswordResetOutcome: String, Codable, Sendable, CaseIterable {
    /// Proven with two categories other than knowledge (or a code and the recovery sheet):
    /// the account is as before, with the new password.
    case complete
    /// Proven with one element: the new password signs in, but payments and changes wait
    /// until the bank lifts the restriction, not before `restrictedUntil`.
    case restricted
}

/// `200` for `POST /v1/password-reset`.
public struct PasswordResetResponse: Codable, Sendable, Equatable {
    public var outcome: PasswordResetOutcome
    /// When the cooling-off ends, for a restricted reset: the earliest time the bank may lift
    /// the restriction.
    public var restrictedUntil: Date?
    /// Sessions ended by the reset (every one of the user's, on every device).
    public var sessionsEnded: Int
    /// PUKs left on the recovery sheet, when the reset used one.
    public var puksLeft: Int?

    public init(outcome: PasswordResetOutcome, restrictedUntil: Date?, sessionsEnded: Int, puksLeft: Int?) {
        self.outcome = outcome
        self.restrictedUntil = restrictedUntil
        self.sessionsEnded = sessionsEnded
        self.puksLeft = puksLeft
    }
}
