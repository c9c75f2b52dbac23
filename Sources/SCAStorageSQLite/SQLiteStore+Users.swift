import Foundation
import GRDB
import SCAStorage

extension SQLiteStore {
    /// Stores a new user, its e-mail lower-cased.
    /// - Throws: `StoreError.conflict("id")` or `StoreError.conflict("email")` when taken.
    package func createUser(_ user: UserRecord) async throws {
        let email = user.email.lowercased()
        try await write { db in
            // Checked before inserting so that the error names the field; the UNIQUE
            // constraints below stay the last word.
            if try db.exists("SELECT 1 FROM users WHERE id = ?", arguments: [user.id]) {
                throw StoreError.conflict("id")
            }
            if try db.exists("SELECT 1 FROM users WHERE email = ?", arguments: [email]) {
                throw StoreError.conflict("email")
            }
            if let loginPhone = user.loginPhone,
                try db.exists("SELECT 1 FROM users WHERE login_phone = ?", arguments: [loginPhone])
            {
                throw StoreError.conflict("loginPhone")
            }
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO users (
                            id, email, phone, password_hash, pin_hash, sealed_totp_seed,
                            email_otp_enabled, roles, created_at, failed_attempts, temporary_blocks,
                            locked_until, permanently_locked, last_totp_step, profile_json, login_phone
                        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [
                        user.id, email, user.phone, user.passwordHash, user.pinHash,
                        user.sealedTOTPSeed.map { Data($0) }, user.emailOTPEnabled, try JSONColumn.text(user.roles),
                        user.createdAt.unixSeconds, user.lockout.failedAttempts,
                        user.lockout.temporaryBlocks, user.lockout.lockedUntil?.unixSeconds,
                        user.lockout.permanentlyLocked, user.lockout.lastTOTPStep, try JSONColumn.text(user.profile),
                        user.loginPhone,
                    ]
                )
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("email")
            }
        }
    }

    package func user(id: String) async throws -> UserRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?").fetchOne(UserRecord.self, arguments: [id])
        }
    }

    /// - Parameter email: compared lower-cased.
    package func user(email: String) async throws -> UserRecord? {
        let email = email.lowercased()
        return try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM users WHERE email = ?").fetchOne(UserRecord.self, arguments: [email])
        }
    }

    /// Sign-up by phone: the user whose login phone is `loginPhone`.
    package func user(loginPhone: String) async throws -> UserRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM users WHERE login_phone = ?").fetchOne(UserRecord.self, arguments: [loginPhone])
        }
    }

    /// All users, oldest first (insertion order among equal creation dates).
    package func users() async throws -> [UserRecord] {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM users ORDER BY created_at, rowid").fetchAll(UserRecord.self)
        }
    }

    package func findUsers(_ search: UserSearch, after: String?, limit: Int) async throws -> [UserRecord] {
        try await read { db in
            // Past the cursor's e-mail; an unknown cursor compares with NULL and finds nobody.
            let past = "(? IS NULL OR email > (SELECT email FROM users WHERE id = ?))"
            switch search {
            case .emailPrefix(let prefix):
                // A range over the e-mail's unique index: every text that starts with the prefix
                // sorts between it and the prefix followed by the highest character.
                let lower = prefix.lowercased()
                return try db.cachedStatement(sql: "SELECT * FROM users WHERE email >= ? AND email < ? AND \(past) ORDER BY email LIMIT ?")
                    .fetchAll(UserRecord.self, arguments: [lower, lower + "\u{10FFFF}", after, after, limit])
            case .phone(let phone):
                return try db.cachedStatement(
                    sql: "SELECT * FROM users WHERE (phone = ? OR login_phone = ?) AND \(past) ORDER BY email LIMIT ?"
                ).fetchAll(UserRecord.self, arguments: [phone, phone, after, after, limit])
            }
        }
    }

    /// Applies the non-nil fields of `update`; a new e-mail is lower-cased.
    /// - Throws: `StoreError.notFound`, or `StoreError.conflict("email")` when the new
    ///   e-mail belongs to another user.
    @discardableResult
    package func updateUser(id: String, _ update: UserUpdate) async throws -> UserRecord {
        try await write { db in
            guard var user = try db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?").fetchOne(UserRecord.self, arguments: [id])
            else {
                throw StoreError.notFound
            }
            // Compare-and-set: the writer serializes, so the check and the write are one.
            if let precondition = update.precondition, !precondition.holds(for: user) {
                throw StoreError.conflict(UserPrecondition.conflictField)
            }
            if let email = update.email?.lowercased(), email != user.email {
                if try db.exists("SELECT 1 FROM users WHERE email = ? AND id <> ?", arguments: [email, id]) {
                    throw StoreError.conflict("email")
                }
                user.email = email
            }
            if let loginPhone = update.loginPhone, loginPhone != user.loginPhone {
                if try db.exists("SELECT 1 FROM users WHERE login_phone = ? AND id <> ?", arguments: [loginPhone, id]) {
                    throw StoreError.conflict("loginPhone")
                }
                user.loginPhone = loginPhone
            }
            if let phone = update.phone { user.phone = phone }
            if let passwordHash = update.passwordHash { user.passwordHash = passwordHash }
            if let pinHash = update.pinHash { user.pinHash = pinHash }
            if let seed = update.sealedTOTPSeed { user.sealedTOTPSeed = seed }
            if update.removesAuthenticatorApp { user.sealedTOTPSeed = nil }
            if let enabled = update.emailOTPEnabled { user.emailOTPEnabled = enabled }
            if let roles = update.roles { user.roles = roles }
            if let profile = update.profile { user.profile = profile }
            do {
                try db.cachedStatement(
                    sql: """
                        UPDATE users
                        SET email = ?, phone = ?, password_hash = ?, pin_hash = ?, sealed_totp_seed = ?,
                            email_otp_enabled = ?, roles = ?, profile_json = ?, login_phone = ?
                        WHERE id = ?
                        """).execute(
                    arguments: [
                        user.email, user.phone, user.passwordHash, user.pinHash,
                        user.sealedTOTPSeed.map { Data($0) }, user.emailOTPEnabled, try JSONColumn.text(user.roles),
                        try JSONColumn.text(user.profile), user.loginPhone, id,
                    ]
                )
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("email")
            }
            return user
        }
    }
}
