import Foundation

/// `POST /admin/v1/users`.
public struct CreateUserRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String?
    public var pin: String?
    public var phone: String?
    public var roles: [String]?
    /// Whether one-time codes may be sent to the e-mail address (default true).
    public var emailCodes: Bool?

    public init(
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
public struct UpdateUserRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var pin: String?
    public var phone: String?
    public var emailCodes: Bool?
    /// The number the user signs up or in with (`POST /v1/signup-or-in` by phone),
    /// E.164 as sign-up normalizes it; unique among users. Only an operator sets it.
    public var loginPhone: String?

    public init(
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
    public init(from decoder: any Decoder) throws {
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
public struct LockStatus: Codable, Sendable, Equatable {
    /// `none`, `temporary` or `permanent`.
    public var state: String
    public var failedAttempts: Int
    public var temporaryBlocks: Int
    public var lockedUntil: Date?

    public init(state: String, failedAttempts: Int, temporaryBlocks: Int, lockedUntil: Date?) {
        self.state = state
        self.failedAttempts = failedAttempts
        self.temporaryBlocks = temporaryBlocks
        self.lockedUntil = lockedUntil
    }
}

/// `GET /admin/v1/users/{id}`.
public struct UserResponse: Codable, Sendable, Equatable {
    public var userId: String
    public var email: String
    public var phone: String?
    public var roles: [String]
    public var methods: [AuthenticationMethod]
    public var lock: LockStatus
    public var devices: [DeviceResponse]
    public var createdAt: Date
    /// The number the user signs in with, if any (sign-up by phone, or set by an operator).
    public var loginPhone: String?

    public init(
        userId: String, email: String, phone: String?, roles: [String],
        methods: [AuthenticationMethod], lock: LockStatus, devices: [DeviceResponse] = [], createdAt: Date,
        loginPhone: String? = nil
    ) {
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
public struct TOTPEnrollmentResponse: Codable, Sendable, Equatable {
    public var secret: String
    public var otpauthUri: String

    public init(secret: String, otpauthUri: String) {
        self.secret = secret
        self.otpauthUri = otpauthUri
    }
}

/// `PUT /admin/v1/users/{id}/roles`: the user's roles, replacing the current ones.
package struct SetRolesRequest: Codable, Sendable, Equatable {
    package var roles: [String]
    package init(roles: [String]) { self.roles = roles }
}
