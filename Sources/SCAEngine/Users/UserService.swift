import Foundation
import SCACore
import SCALocalization
import SCAStorage

/// Creating users and managing their credentials: what the admin API, the admin CLI and the
/// user's own settings change call.
///
/// Every change is recorded in the audit trail here, where it is made, whoever asked for it:
/// the fields changed and the methods enrolled, never their values.
package struct UserService: EngineService, Sendable {
    static let totpSealingContext = "totp-seed"

    package let context: EngineContext
    let hasher: PasswordHasher
    /// Where scrypt runs: the same bounded pool as the proofs.
    let hashing: PasswordHashingPool
    /// Named in the otpauth URI of a TOTP enrollment: the configured token issuer.
    let issuer: String
    /// A changed credential, address or phone is alerted to its user, whoever changed it.
    let alerts: SecurityAlerts

    /// An operator's act, recorded as `admin.user_created` with the methods enrolled.
    /// - Throws: `Problem` (`request.invalid`, `user.exists`); nothing is recorded then.
    package func create(_ request: CreateUserRequest) async throws -> UserRecord {
        let email = InputRules.normalizedEmail(request.email)
        try Self.validate(email: email, password: request.password, pin: request.pin, phone: request.phone)
        guard (request.roles ?? []).count <= 16 else {
            throw Problem.invalidRequest("roles must be up to 16 names of 1 to 64 characters")
        }
        // Roles are names an operator reads: the display-text rule, stored in NFC.
        let roles = try (request.roles ?? []).map {
            try DeviceService.displayText($0, field: "roles", maxLength: DisplayText.maxRoleLength)
        }
        let user = UserRecord(
            id: runtime.makeID(prefix: "usr"), email: email, phone: request.phone,
            passwordHash: try await hash(request.password), pinHash: try await hash(request.pin),
            emailOTPEnabled: request.emailCodes ?? true, roles: roles, createdAt: runtime.now())
        do {
            try await store.createUser(user)
        } catch StoreError.conflict {
            throw Problem.userExists
        }
        var methods: [String] = []
        if request.password != nil { methods.append("password") }
        if request.pin != nil { methods.append("pin") }
        if request.phone != nil { methods.append("sms_otp") }
        if request.emailCodes == true { methods.append("email_otp") }
        await audit.record(.adminUserCreated, userID: user.id, details: ["methods": methods.joined(separator: ",")])
        return user
    }

    /// An operator's change, recorded as `admin.user_updated` naming the fields changed.
    /// - Throws: `Problem` (`request.invalid`, `user.not_found`, `user.exists`); nothing is
    ///   recorded then.
    @discardableResult
    package func update(userID: String, _ request: UpdateUserRequest) async throws -> UserRecord {
        let before = try await store.user(id: userID)
        let user = try await write(userID: userID, request)
        await audit.record(.adminUserUpdated, userID: userID, details: ["fields": Self.fields(of: request)])
        await alertChanges(from: before, to: user, request)
        return user
    }

    /// The user's own change of settings (`PATCH /v1/me`), recorded as `user.settings_changed`
    /// naming the fields changed.
    /// - Throws: as ``update(userID:_:)``.
    func changeOwnSettings(userID: String, _ request: UpdateUserRequest) async throws -> UserRecord {
        let before = try await store.user(id: userID)
        let user = try await write(userID: userID, request)
        await audit.record(.userSettingsChanged, userID: userID, details: ["fields": Self.fields(of: request)])
        await alertChanges(from: before, to: user, request)
        return user
    }

    /// One alert per credential or contact the change set, to every channel the user has now;
    /// a replaced e-mail address or phone number is told too, so a change that took the real
    /// owner's channel away still reaches them.
    private func alertChanges(from before: UserRecord?, to user: UserRecord, _ request: UpdateUserRequest) async {
        typealias Recipient = SecurityAlerts.Recipient
        if request.password != nil { await alerts.send(.passwordChanged, to: user) }
        if request.pin != nil { await alerts.send(.pinChanged, to: user) }
        if let before, before.email != user.email {
            let former = SignUpSettings.isPlaceholder(email: before.email) ? [] : [Recipient(channel: .email, address: before.email)]
            await alerts.send(.emailChanged, to: user, formerAddresses: former)
        }
        if let before, before.phone != user.phone || before.loginPhone != user.loginPhone {
            let former = [before.phone, before.loginPhone].compactMap { $0 }.filter { $0 != user.phone }
            await alerts.send(.phoneChanged, to: user, formerAddresses: former.map { Recipient(channel: .sms, address: $0) })
        }
    }

    /// The fields a change sets, comma-separated, for the trail: names only, never values.
    private static func fields(of request: UpdateUserRequest) -> String {
        var fields: [String] = []
        if request.email != nil { fields.append("email") }
        if request.password != nil { fields.append("password") }
        if request.pin != nil { fields.append("pin") }
        if request.phone != nil { fields.append("phone") }
        if request.emailCodes != nil { fields.append("emailCodes") }
        if request.loginPhone != nil { fields.append("loginPhone") }
        return fields.joined(separator: ",")
    }

    /// Validates, hashes and stores a change, unrecorded: the callers above record it.
    private func write(userID: String, _ request: UpdateUserRequest) async throws -> UserRecord {
        let email = request.email.map(InputRules.normalizedEmail)
        try Self.validate(email: email, password: request.password, pin: request.pin, phone: request.phone)
        // A login phone as sign-up by phone takes it: normalized to E.164, then checked.
        let loginPhone = request.loginPhone.map(InputRules.normalizedPhone)
        if let problem = loginPhone.flatMap(InputRules.phoneProblem) { throw Problem.invalidRequest("loginPhone: \(problem)") }
        let update = UserUpdate(
            email: email, phone: request.phone, passwordHash: try await hash(request.password),
            pinHash: try await hash(request.pin), emailOTPEnabled: request.emailCodes, loginPhone: loginPhone)
        do {
            return try await store.updateUser(id: userID, update)
        } catch StoreError.notFound {
            throw Problem.userNotFound
        } catch StoreError.conflict("loginPhone") {
            var taken = Problem.userExists
            taken.detail = "another user signs in with this phone number"
            throw taken
        } catch StoreError.conflict {
            throw Problem.userExists
        }
    }

    /// Draws a new TOTP seed (20 bytes, as RFC 4226 recommends), seals it and returns it once.
    /// An operator's act, recorded as `admin.totp_enrolled`.
    /// - Throws: `Problem.userNotFound`.
    package func enrollTOTP(userID: String) async throws -> TOTPEnrollmentResponse {
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        let seed = runtime.random.bytes(20)
        let sealed = try box.seal(seed, context: Self.totpSealingContext)
        let enrolled = try await store.updateUser(id: userID, UserUpdate(sealedTOTPSeed: sealed))
        await audit.record(.adminTOTPEnrolled, userID: userID)
        await alerts.send(.totpEnrolled, to: enrolled)
        return TOTPEnrollmentResponse(
            secret: Base32.encode(seed), otpauthUri: TOTP.otpauthURI(secret: seed, account: Self.totpAccount(of: user), issuer: issuer))
    }

    /// Removes the user's authenticator app (a lost or replaced phone): its codes are refused
    /// from now on, and the user sets up a new one (`POST /v1/me/totp`) once signed in with
    /// their other factors. An operator's act, recorded as `admin.totp_removed`; the user is
    /// told, as of every change to what protects the account.
    /// - Throws: `Problem.userNotFound`; 404 `resource.not_found` when the user has no
    ///   authenticator app.
    package func removeTOTP(userID: String) async throws {
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        guard user.sealedTOTPSeed != nil else {
            throw Problem(status: 404, code: .notFound, title: "Not found", detail: "The user has no authenticator app.")
        }
        var removal = UserUpdate()
        removal.removesAuthenticatorApp = true
        let updated: UserRecord
        do {
            updated = try await store.updateUser(id: userID, removal)
        } catch StoreError.notFound {
            throw Problem.userNotFound
        }
        await audit.record(.adminTOTPRemoved, userID: userID)
        await alerts.send(.totpRemoved, to: updated)
    }

    /// The `otpauth://` URI of the TOTP seed `user` has, opened again: for the demo's banner
    /// only, which shows the demo admin's seed at every start (a real user's seed is shown
    /// once, at enrolment). Nil when the user has none.
    func enrolledTOTPURI(of user: UserRecord) throws -> String? {
        guard let sealed = user.sealedTOTPSeed else { return nil }
        let seed = try box.open(sealed, context: Self.totpSealingContext)
        return TOTP.otpauthURI(secret: seed, account: Self.totpAccount(of: user), issuer: issuer)
    }

    /// The account an authenticator app shows for `user`'s TOTP: their e-mail, or for a user
    /// who signed up by phone and still has the placeholder e-mail (`<digits>@phone.invalid`),
    /// their login phone, which is what they know the account by.
    static func totpAccount(of user: UserRecord) -> String {
        guard let loginPhone = user.loginPhone, user.email == SignUpSettings.placeholderEmail(forPhone: loginPhone) else {
            return user.email
        }
        return loginPhone
    }

    /// An operator's act, recorded as `admin.user_unblocked`.
    /// - Throws: `Problem.userNotFound`.
    package func unblock(userID: String) async throws {
        guard try await store.unblockUser(id: userID) else { throw Problem.userNotFound }
        await audit.record(.adminUserUnblocked, userID: userID)
    }

    /// Replaces a user's roles: an operator's act, recorded as `admin.roles_changed` with the
    /// roles before and after. Tokens carry the new roles from the next one issued (a refresh
    /// included); an operator's admin access follows them at once.
    /// - Parameter operatorID: the operator acting with their own token, if so: nobody
    ///   changes their own roles, which would let a role grant itself more.
    /// - Throws: `Problem` `request.invalid` (up to 16 names of display text), `user.not_found`,
    ///   403 `auth.forbidden` for an operator's own roles; nothing is recorded then.
    package func setRoles(userID: String, _ roles: [String], byOperator operatorID: String? = nil) async throws -> UserRecord {
        guard operatorID != userID else {
            throw Problem(status: 403, code: .forbidden, title: "Forbidden", detail: "An operator cannot change their own roles.")
        }
        guard roles.count <= 16 else { throw Problem.invalidRequest("roles must be up to 16 names of 1 to 64 characters") }
        let normalized = RolePermissions.normalized(
            try roles.map { try DeviceService.displayText($0, field: "roles", maxLength: DisplayText.maxRoleLength) })
        guard let before = try await store.user(id: userID) else { throw Problem.userNotFound }
        let user: UserRecord
        do {
            user = try await store.updateUser(id: userID, UserUpdate(roles: normalized))
        } catch StoreError.notFound {
            throw Problem.userNotFound
        }
        await audit.record(
            .adminRolesChanged, userID: userID,
            details: ["before": before.roles.joined(separator: ","), "after": normalized.joined(separator: ",")])
        return user
    }

    /// Finds a user by id (`usr_…`) or e-mail address.
    package func find(_ idOrEmail: String) async throws -> UserRecord? {
        if idOrEmail.contains("@") {
            return try await store.user(email: InputRules.normalizedEmail(idOrEmail))
        }
        return try await store.user(id: idOrEmail)
    }

    package func list() async throws -> [UserRecord] {
        try await store.users()
    }

    /// The language the user chose (`PUT /v1/me/profile`, or at sign-up), for a page to speak
    /// it after the request's `ui_locales` and before `Accept-Language`. Nil when they chose
    /// none, or when there is no such user.
    package func language(ofUser userID: String) async throws -> Language? {
        Self.language(of: try await store.user(id: userID))
    }

    /// ``language(ofUser:)`` of a user the caller read already.
    package static func language(of user: UserRecord?) -> Language? {
        ProfileLocale.language(stored: user?.profile.locale)
    }

    /// The time zone the user chose, for a page to show times in; nil (show UTC, and say so)
    /// when they chose none, or when there is no such user.
    package func timeZone(ofUser userID: String) async throws -> TimeZone? {
        ProfileLocale.timeZone(stored: try await store.user(id: userID)?.profile.zoneinfo)
    }

    /// The operator's view of a user: never a secret, only what is enrolled, and the devices.
    package func describe(_ user: UserRecord) async throws -> UserResponse {
        let lock = user.lockout
        let now = runtime.now()
        let state: String =
            if lock.permanentlyLocked { "permanent" } else if let until = lock.lockedUntil, until > now { "temporary" } else { "none" }
        return UserResponse(
            userId: user.id, email: user.email, phone: user.phone, roles: user.roles, methods: user.enrolledMethods,
            lock: LockStatus(
                state: state, failedAttempts: lock.failedAttempts, temporaryBlocks: lock.temporaryBlocks,
                lockedUntil: state == "temporary" ? lock.lockedUntil : nil),
            devices: try await store.devices(userID: user.id).map(DeviceService.describe),
            createdAt: user.createdAt, loginPhone: user.loginPhone, restrictedUntil: user.restrictedUntil)
    }

    private func hash(_ secret: String?) async throws -> String? {
        guard let secret else { return nil }
        let hasher = self.hasher
        return try await hashing.run(.hash) { try hasher.hash(secret) }
    }

    /// Checks the shape of whichever values are given.
    /// - Throws: `Problem.invalidRequest` naming the first bad one.
    static func validate(email: String?, password: String?, pin: String?, phone: String?) throws {
        let problem =
            email.map(InputRules.normalizedEmail).flatMap(InputRules.emailProblem)
            ?? password.flatMap(InputRules.passwordProblem) ?? pin.flatMap(InputRules.pinProblem)
            ?? phone.flatMap(InputRules.phoneProblem)
        if let problem { throw Problem.invalidRequest(problem) }
        // The placeholder domain of phone sign-ups is nobody's: an operator giving it
        // out would take a number's placeholder before its owner signs up.
        if let email, InputRules.normalizedEmail(email).hasSuffix("@" + SignUpSettings.phonePlaceholderDomain) {
            throw Problem.invalidRequest("email: @\(SignUpSettings.phonePlaceholderDomain) is reserved for users who signed up by phone")
        }
    }
}
