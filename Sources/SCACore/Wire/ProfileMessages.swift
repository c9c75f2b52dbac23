import Foundation

/// `PUT /v1/me/profile` and `PUT /admin/v1/users/{id}/profile`, and the profile
/// part of `POST /v1/me/enrolment`: the name, custom attributes, language and time zone. An
/// absent field is left alone; `attributes` replaces the whole map (`{}` clears it); an empty
/// `locale` or `zoneinfo` clears it.
package struct ProfileRequest: Codable, Sendable, Equatable {
    package var name: String?
    package var attributes: [String: String]?
    /// A BCP 47 tag of a language the server ships (`de`, `de-AT`); stored as its language.
    package var locale: String?
    /// An IANA time zone (`Europe/Berlin`).
    package var zoneinfo: String?

    package init(name: String? = nil, attributes: [String: String]? = nil, locale: String? = nil, zoneinfo: String? = nil) {
        self.name = name
        self.attributes = attributes
        self.locale = locale
        self.zoneinfo = zoneinfo
    }
}

/// A user's profile as stored (`name`, `attributes`, `locale`, `zoneinfo`) and, for
/// `GET /v1/me`, the rest of what the user may know about their own account.
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
    /// The language messages are written in (`de`), when the user chose one.
    public var locale: String?
    /// The time zone messages give times in (`Europe/Berlin`), when the user chose one.
    public var zoneinfo: String?
    /// Set while a password reset proven with one element holds payments and changes: the
    /// earliest time the bank may lift the hold.
    public var restrictedUntil: Date?

    public init(
        userId: String, email: String, phone: String?, name: String?, attributes: [String: String], roles: [String],
        permissions: [String], methods: [AuthenticationMethod], devices: Int, locale: String? = nil, zoneinfo: String? = nil,
        restrictedUntil: Date? = nil
    ) {
        self.restrictedUntil = restrictedUntil
        self.userId = userId
        self.email = email
        self.phone = phone
        self.name = name
        self.attributes = attributes
        self.roles = roles
        self.permissions = permissions
        self.methods = methods
        self.devices = devices
        self.locale = locale
        self.zoneinfo = zoneinfo
    }
}
