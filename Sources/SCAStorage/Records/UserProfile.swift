/// What a user tells about themselves: a display name and custom attributes, within
/// the rules of `UserAttributes`, and the language and time zone their messages are written in.
/// Stored as one JSON column, read whole and written whole.
///
/// `locale` and `zoneinfo` came later: a row written before them has neither key, and decodes
/// with both nil, so no migration was needed. Nil fields are left out when encoding, so a
/// profile without them is stored exactly as before.
public struct UserProfile: Sendable, Equatable, Codable {
    public var name: String?
    /// Keys `[a-z][a-z0-9_]{0,31}`, string values.
    public var attributes: [String: String]
    /// The language the user reads, as the primary language subtag of a shipped catalogue
    /// (`de`, whatever region the user gave); OpenID Connect's claim name. Nil: the server's
    /// configured default language.
    public var locale: String?
    /// The user's IANA time zone (`Europe/Berlin`); OpenID Connect's claim name. Nil: times
    /// are written in UTC, and say so.
    public var zoneinfo: String?

    public init(name: String? = nil, attributes: [String: String] = [:], locale: String? = nil, zoneinfo: String? = nil) {
        self.name = name
        self.attributes = attributes
        self.locale = locale
        self.zoneinfo = zoneinfo
    }
}
