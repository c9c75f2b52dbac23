import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// Stores a new user, its e-mail lower-cased, in one INSERT: the PRIMARY KEY and UNIQUE
    /// constraints decide between racing instances, and the constraint the server names tells
    /// which field was taken.
    /// - Throws: `StoreError.conflict("id")`, `("email")` or `("loginPhone")` when taken.
    package func createUser(_ user: UserRecord) async throws {
        let email = user.email.lowercased()
        let roles = try JSONColumn.text(user.roles)
        let profile = try JSONColumn.text(user.profile)
        do {
            _ = try await rows(
                """
                INSERT INTO users (
                    id, email, phone, password_hash, pin_hash, sealed_totp_seed,
                    email_otp_enabled, roles, created_at, failed_attempts, temporary_blocks,
                    locked_until, permanently_locked, last_totp_step, profile_json, login_phone
                ) VALUES (
                    \(user.id), \(email), \(user.phone), \(user.passwordHash), \(user.pinHash),
                    \(user.sealedTOTPSeed.map(bytea)), \(user.emailOTPEnabled), \(roles), \(user.createdAt.unixSeconds),
                    \(user.lockout.failedAttempts), \(user.lockout.temporaryBlocks),
                    \(user.lockout.lockedUntil?.unixSeconds), \(user.lockout.permanentlyLocked), \(user.lockout.lastTOTPStep),
                    \(profile), \(user.loginPhone)
                )
                """)
        } catch let error as PSQLError where error.isUniqueViolation {
            // The primary key is checked first, as the SQLite store checks the id first.
            let field = switch error.constraintName {
            case "users_pkey": "id"
            case "users_login_phone_key": "loginPhone"
            default: "email"
            }
            throw StoreError.conflict(field)
        }
    }

    package func user(id: String) async throws -> UserRecord? {
        try await rows("SELECT * FROM users WHERE id = \(id)").first.map(UserRecord.init(row:))
    }

    /// - Parameter email: compared lower-cased.
    package func user(email: String) async throws -> UserRecord? {
        try await rows("SELECT * FROM users WHERE email = \(email.lowercased())").first.map(UserRecord.init(row:))
    }

    /// Sign-up by phone: the user whose login phone is `loginPhone`.
    package func user(loginPhone: String) async throws -> UserRecord? {
        try await rows("SELECT * FROM users WHERE login_phone = \(loginPhone)").first.map(UserRecord.init(row:))
    }

    /// All users, oldest first (insertion order among equal creation dates).
    package func users() async throws -> [UserRecord] {
        try await rows("SELECT * FROM users ORDER BY created_at, seq").map(UserRecord.init(row:))
    }

    package func findUsers(_ search: UserSearch, after: String?, limit: Int) async throws -> [UserRecord] {
        // Past the cursor's e-mail, in the column's own order (the one ORDER BY uses); an
        // unknown cursor compares with NULL and finds nobody.
        switch search {
        case .emailPrefix(let prefix):
            // starts_with, not a range: the column's collation need not sort by code point.
            return try await rows(
                """
                SELECT * FROM users WHERE starts_with(email, \(prefix.lowercased()))
                    AND (\(after)::TEXT IS NULL OR email > (SELECT email FROM users WHERE id = \(after)))
                ORDER BY email LIMIT \(limit)
                """
            ).map(UserRecord.init(row:))
        case .phone(let phone):
            return try await rows(
                """
                SELECT * FROM users WHERE (phone = \(phone) OR login_phone = \(phone))
                    AND (\(after)::TEXT IS NULL OR email > (SELECT email FROM users WHERE id = \(after)))
                ORDER BY email LIMIT \(limit)
                """
            ).map(UserRecord.init(row:))
        }
    }

    /// Applies the non-nil fields of `update` in one UPDATE (a nil parameter keeps the column),
    /// so the change is atomic without a transaction; a new e-mail is lower-cased.
    /// - Throws: `StoreError.notFound`, or `StoreError.conflict("email")` when the new
    ///   e-mail belongs to another user.
    @discardableResult
    package func updateUser(id: String, _ update: UserUpdate) async throws -> UserRecord {
        let updated: [PostgresRow]
        let roles = try update.roles.map(JSONColumn.text)
        let profile = try update.profile.map { try JSONColumn.text($0) }
        let logger = self.logger
        do {
            updated = try await transaction { connection in
                // Compare-and-set: the row locked, checked, then written in one transaction.
                if let precondition = update.precondition {
                    guard let row = try await connection.rows("SELECT * FROM users WHERE id = \(id) FOR UPDATE", logger: logger).first
                    else { throw StoreError.notFound }
                    guard precondition.holds(for: try UserRecord(row: row)) else {
                        throw StoreError.conflict(UserPrecondition.conflictField)
                    }
                }
                return try await connection.rows(
                """
                UPDATE users SET
                    email = COALESCE(\(update.email?.lowercased())::TEXT, email),
                    phone = COALESCE(\(update.phone)::TEXT, phone),
                    password_hash = COALESCE(\(update.passwordHash)::TEXT, password_hash),
                    pin_hash = COALESCE(\(update.pinHash)::TEXT, pin_hash),
                    sealed_totp_seed = CASE WHEN \(update.removesAuthenticatorApp) THEN NULL
                        ELSE COALESCE(\(update.sealedTOTPSeed.map(bytea))::BYTEA, sealed_totp_seed) END,
                    email_otp_enabled = COALESCE(\(update.emailOTPEnabled)::BOOLEAN, email_otp_enabled),
                    roles = COALESCE(\(roles)::TEXT, roles),
                    profile_json = COALESCE(\(profile)::TEXT, profile_json),
                    login_phone = COALESCE(\(update.loginPhone)::TEXT, login_phone)
                WHERE id = \(id)
                RETURNING *
                """, logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict(error.constraintName == "users_login_phone_key" ? "loginPhone" : "email")
        }
        guard let row = updated.first else { throw StoreError.notFound }
        return try UserRecord(row: row)
    }
}
