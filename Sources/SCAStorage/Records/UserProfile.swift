/// What a user tells about themselves: a display name and custom attributes, within
/// the rules of `UserAttributes`. Stored as one JSON column, read whole and written whole.
public struct UserProfile: Sendable, Equatable, Codable {
    public var name: String?
    /// Keys `[a-z][a-z0-9_]{0,31}`, string values.
    public var attributes: [String: String]

    public init(name: String? = nil, attributes: [String: String] = [:]) {
        self.name = name
        self.attributes = attributes
    }
}
