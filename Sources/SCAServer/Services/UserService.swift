import Foundation
import SCACore
import SCAStorage

/// Creating users and managing their credentials: what the admin API and the admin CLI call.
public struct UserService: Sendable {
    static let totpSealingContext = "totp-seed"

    let store: any SCAStore
    let hasher: PasswordHasher
    /// Where scrypt runs: the same bounded pool as the proofs.
    let hashing: PasswordHashingPool
    let box: SecretBox
    let runtime: ServerRuntime
    let issuer: String

    /// - Throws: `Problem` (`request.invalid`, `user.exists`).
    public func create(_ request: CreateUserRequest) async throws -> UserRecord {
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
        return user
    }

    /// - Throws: `Problem` (`request.invalid`, `user.not_found`, `user.exists`).
    @discardableResult
    public func update(userID: String, _ request: UpdateUserRequest) async throws -> UserRecord {
        let email = request.email.map(InputRules.normalizedEmail)
        try Self.validate(email: email, password: request.password, pin: request.pin, phone: request.phone)
        let update = UserUpdate(
            email: email, phone: request.phone, passwordHash: try await hash(request.password),
            pinHash: try await hash(request.pin), emailOTPEnabled: request.emailCodes)
        do {
            return try await store.updateUser(id: userID, update)
        } catch StoreError.notFound {
            throw Problem.userNotFound
        } catch StoreError.conflict {
            throw Problem.userExists
        }
    }

    /// Draws a new TOTP seed (20 bytes, as RFC 4226 recommends), seals it and returns it once.
    /// - Throws: `Problem.userNotFound`.
    public func enrollTOTP(userID: String) async throws -> TOTPEnrollmentResponse {
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        let seed = runtime.random.bytes(20)
        let sealed = try box.seal(seed, context: Self.totpSealingContext)
        try await store.updateUser(id: userID, UserUpdate(sealedTOTPSeed: sealed))
        return TOTPEnrollmentResponse(
            secret: Base32.encode(seed), otpauthUri: TOTP.otpauthURI(secret: seed, account: user.email, issuer: issuer))
    }

    /// - Throws: `Problem.userNotFound`.
    public func unblock(userID: String) async throws {
        guard try await store.unblockUser(id: userID) else { throw Problem.userNotFound }
    }

    /// Finds a user by id (`usr_…`) or e-mail address.
    public func find(_ idOrEmail: String) async throws -> UserRecord? {
        if idOrEmail.contains("@") {
            return try await store.user(email: InputRules.normalizedEmail(idOrEmail))
        }
        return try await store.user(id: idOrEmail)
    }

    public func list() async throws -> [UserRecord] {
        try await store.users()
    }

    /// The operator's view of a user: never a secret, only what is enrolled, and the devices.
    public func describe(_ user: UserRecord) async throws -> UserResponse {
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
            createdAt: user.createdAt)
    }

    private func hash(_ secret: String?) async throws -> String? {
        guard let secret else { return nil }
        let hasher = self.hasher
        return try await hashing.run { try hasher.hash(secret) }
    }

    /// Checks the shape of whichever values are given.
    /// - Throws: `Problem.invalidRequest` naming the first bad one.
    static func validate(email: String?, password: String?, pin: String?, phone: String?) throws {
        let problem =
            email.map(InputRules.normalizedEmail).flatMap(InputRules.emailProblem)
            ?? password.flatMap(InputRules.passwordProblem) ?? pin.flatMap(InputRules.pinProblem)
            ?? phone.flatMap(InputRules.phoneProblem)
        if let problem { throw Problem.invalidRequest(problem) }
    }
}
