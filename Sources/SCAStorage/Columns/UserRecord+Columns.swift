import Foundation
import SCACore

extension UserRecord: ColumnDecodable {
    /// A `users` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            email: try columns.value("email"),
            phone: try columns.value("phone"),
            passwordHash: try columns.value("password_hash"),
            pinHash: try columns.value("pin_hash"),
            sealedTOTPSeed: try columns.optionalBytes("sealed_totp_seed"),
            emailOTPEnabled: try columns.value("email_otp_enabled"),
            roles: try columns.stringList("roles"),
            createdAt: try columns.date("created_at"),
            lockout: try LockoutState(columns: columns),
            profile: try Self.profile(columns),
            loginPhone: try columns.value("login_phone")
        )
        activePasskeys = try columns.value("active_passkeys")
        restrictedUntil = try columns.optionalDate("restricted_until")
    }

    /// The text every backend stores for a user without a profile, as ``JSONColumn`` writes it.
    package static let emptyProfileText = #"{"attributes":{}}"#

    /// Most users have no profile: that text is recognised rather than decoded, since a user's
    /// row is read on every challenge and proof and a `JSONDecoder` for it was a large part of
    /// the read. Any other text is decoded as before.
    private static func profile(_ columns: some ColumnReader) throws -> UserProfile {
        if try columns.isNull("profile_json") || columns.string("profile_json") == emptyProfileText { return UserProfile() }
        return try columns.json("profile_json")
    }
}

extension LockoutState: ColumnDecodable {
    /// The lockout columns of a `users` row (or of any row that has them).
    package init(columns: some ColumnReader) throws {
        self.init(
            failedAttempts: try columns.value("failed_attempts"),
            temporaryBlocks: try columns.value("temporary_blocks"),
            lockedUntil: try columns.optionalDate("locked_until"),
            permanentlyLocked: try columns.value("permanently_locked"),
            lastTOTPStep: try columns.value("last_totp_step")
        )
    }
}
