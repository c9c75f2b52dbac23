import Foundation

/// A password reset to apply in one transaction (``SCAStore/resetPassword(_:)``).
public struct PasswordReset: Sendable, Equatable {
    /// The recovery sheet's PUK a complete reset redeems: the sheet found by its code, and how
    /// many PUKs were burnt when the PUK was checked.
    public struct RedeemedPUK: Sendable, Equatable {
        public var codeDigest: [UInt8]
        public var usedPUKs: Int

        public init(codeDigest: [UInt8], usedPUKs: Int) {
            self.codeDigest = codeDigest
            self.usedPUKs = usedPUKs
        }
    }

    public var userID: String
    /// The new password as a scrypt PHC string.
    public var passwordHash: String
    /// When the cooling-off of a restricted reset ends; nil for a complete reset, which also
    /// clears an earlier restriction.
    public var restrictedUntil: Date?
    public var redeemedPUK: RedeemedPUK?
    public var now: Date

    public init(userID: String, passwordHash: String, restrictedUntil: Date?, redeemedPUK: RedeemedPUK?, now: Date) {
        self.userID = userID
        self.passwordHash = passwordHash
        self.restrictedUntil = restrictedUntil
        self.redeemedPUK = redeemedPUK
        self.now = now
    }
}
