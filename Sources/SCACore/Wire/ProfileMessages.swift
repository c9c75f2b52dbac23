/// `PUT /v1/me/profile` and `PUT /admin/v1/users/{id}/profile`, and the profile
/// part of `POST /v1/me/enrolment`: the name and custom attributes. An absent field is left
/// alone; `attributes` replaces the whole map (`{}` clears it).
package struct ProfileRequest: Codable, Sendable, Equatable {
    package var name: String?
    package var attributes: [String: String]?

    package init(name: String? = nil, attributes: [String: String]? = nil) {
        self.name = name
        self.attributes = attributes
    }
}

/// A user's profile as stored (`name`, `attributes`) and, for `GET /v1/me`, the rest of what
/// the user may know about their own account.
public struct ProfileResponse: Codable, Sendable, Equatable {
    public var userId: String
    public var email: String
    public var phone: String?
    public var name: String?
    public var attributes: [String: String]
    public var roles: [String]
    public var permissions: [String]
    /// The methods enrolled, as a challenge would offer them (device methods not included).
    public var methods: [AuthenticationMethod]
    /// Devices bound and not removed.
    public var devices: Int

    public init(
        userId: String, email: String, phone: String?, name: String?, attributes: [String: String], roles: [String],
        permissions: [String], methods: [AuthenticationMethod], devices: Int
    ) {
        self.userId = userId
        self.email = email
        self.phone = phone
        self.name = name
        self.attributes = attributes
        self.roles = roles
        self.permissions = permissions
        self.methods = methods
        self.devices = devices
    }
}
