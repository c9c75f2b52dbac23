import Foundation

/// `POST /admin/v1/users`.
package struct CreateUserRequest: Codable, Sendable, Equatable {
    package var email: String
    package var password: String?
    package var pin: String?
    package var phone: String?
    package var roles: [String]?
    /// Whether one-time codes may be sent to the e-mail address (default true).
    package var emailCodes: Bool?

    package init(
        email: String, password: String? = nil, pin: String? = nil, phone: String? = nil,
        roles: [String]? = nil, emailCodes: Bool? = nil
    ) {
        self.email = email
        self.password = password
        self.pin = pin
        self.phone = phone
        self.roles = roles
        self.emailCodes = emailCodes
    }
}

/// `201` for a created user.
package struct CreatedUserResponse: Codable, Sendable, Equatable {
    package var userId: String
    package init(userId: String) { self.userId = userId }
}

/// `PATCH /admin/v1/users/{id}`: every field optional; absent fields are left alone.
package struct UpdateUserRequest: Codable, Sendable, Equatable {
    package var email: String?
    package var password: String?
    package var pin: String?
    package var phone: String?
    package var emailCodes: Bool?
    /// The number the user signs up or in with (`POST /v1/signup-or-in` by phone),
    /// E.164 as sign-up normalizes it; unique among users. Only an operator sets it.
    package var loginPhone: String?

    package init(
        email: String? = nil, password: String? = nil, pin: String? = nil, phone: String? = nil,
        emailCodes: Bool? = nil, loginPhone: String? = nil
    ) {
        self.email = email
        self.password = password
        self.pin = pin
        self.phone = phone
        self.emailCodes = emailCodes
        self.loginPhone = loginPhone
    }

    enum CodingKeys: String, CodingKey { case email, password, pin, phone, emailCodes, loginPhone }

    /// Absent fields are left alone; `null` is refused (`emailCodes must not be null`), since
    /// the schema types every field without null and "leave alone" and "clear" must not be
    /// confused.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for key in container.allKeys where try container.decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: container.codingPath + [key], debugDescription: "\(key.stringValue) is null"))
        }
        email = try container.decodeIfPresent(String.self, forKey: .email)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        pin = try container.decodeIfPresent(String.self, forKey: .pin)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        emailCodes = try container.decodeIfPresent(Bool.self, forKey: .emailCodes)
        loginPhone = try container.decodeIfPresent(String.self, forKey: .loginPhone)
    }
}

/// The lock state of a user, as an operator sees it.
package struct LockStatus: Codable, Sendable, Equatable {
    /// `none`, `temporary` or `permanent`.
    package var state: String
    package var failedAttempts: Int
    package var temporaryBlocks: Int
    package var lockedUntil: Date?

    package init(state: String, failedAttempts: Int, temporaryBlocks: Int, lockedUntil: Date?) {
        self.state = state
        self.failedAttempts = failedAttempts
        self.temporaryBlocks = temporaryBlocks
        self.lockedUntil = lockedUntil
    }
}

/// `GET /admin/v1/users/{id}`.
package struct UserResponse: Codable, Sendable, Equatable {
    package var userId: String
    package var email: String
    package var phone: String?
    package var roles: [String]
    package var methods: [AuthenticationMethod]
    package var lock: LockStatus
    package var devices: [DeviceResponse]
    package var createdAt: Date
    /// The number the user signs in with, if any (sign-up by phone, or set by an operator).
    package var loginPhone: String?
    /// Set while a password reset proven with one element holds payments and changes: the
    /// end of its cooling-off, from which `DELETE /admin/v1/users/{id}/restriction` lifts it.
    package var restrictedUntil: Date?
    /// After the user's own change of e-mail or phone (`PATCH /v1/me`): the new addresses
    /// waiting for the code sent to them; the account keeps the old ones until then.
    package var pendingConfirmations: [PendingContactChangeResponse]?

    package init(
        userId: String, email: String, phone: String?, roles: [String],
        methods: [AuthenticationMethod], lock: LockStatus, devices: [DeviceResponse] = [], createdAt: Date,
        loginPhone: String? = nil, restrictedUntil: Date? = nil
    ) {
        self.restrictedUntil = restrictedUntil
        self.loginPhone = loginPhone
        self.userId = userId
        self.email = email
        self.phone = phone
        self.roles = roles
        self.methods = methods
        self.lock = lock
        self.devices = devices
        self.createdAt = createdAt
    }
}

/// `201` for a TOTP enrolment: the seed is shown this once.
package struct TOTPEnrollmentResponse: Codable, Sendable, Equatable {
    package var secret: String
    package var otpauthUri: String

    package init(secret: String, otpauthUri: String) {
        self.secret = secret
        self.otpauthUri = otpauthUri
    }
}

/// `PUT /admin/v1/users/{id}/roles`: the user's roles, replacing the current ones.
package struct SetRolesRequest: Codable, Sendable, Equatable {
    package var roles: [String]
    package init(roles: [String]) { self.roles = roles }
}
