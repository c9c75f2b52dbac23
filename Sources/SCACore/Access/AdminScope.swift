/// What an admin credential may do: the scopes of an admin key and the permissions an
/// operator's roles must grant for the admin API. One list for every admin area, so a route
/// names exactly one of these and a key or a role is written with the same words.
///
/// There is no wildcard and no implication (`users:write` does not include `users:read`):
/// a credential can do what it lists and nothing more. Only the bootstrap key (`adminKey`)
/// holds every scope.
public enum AdminScope: String, CaseIterable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// Read users: list, describe (never a secret).
    case usersRead = "users:read"
    /// Create users, change their credentials and settings, enrol TOTP.
    case usersWrite = "users:write"
    /// Lift a user's temporary or permanent block.
    case usersUnblock = "users:unblock"
    /// Change a user's roles: kept apart from `users:write` since it grants permissions.
    case usersRoles = "users:roles"
    /// Read devices.
    case devicesRead = "devices:read"
    /// Issue activation codes, block, unblock and remove devices.
    case devicesWrite = "devices:write"
    /// Read partner clients.
    case clientsRead = "clients:read"
    /// Register, change and remove partner clients.
    case clientsWrite = "clients:write"
    /// Read challenges and operations.
    case operationsRead = "operations:read"
    /// Act on challenges and operations (cancel).
    case operationsWrite = "operations:write"
    /// Read risk data and fraud reports.
    case riskRead = "risk:read"
    /// Report fraud and change risk data.
    case riskWrite = "risk:write"
    /// Read the audit trail (it is append-only: there is no `audit:write`).
    case auditRead = "audit:read"

    public var description: String { rawValue }

    public static func < (lhs: AdminScope, rhs: AdminScope) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Parses a comma-separated list (`users:read, users:unblock`): each scope once, sorted.
    /// - Returns: the scopes, or the first word that is not one (`nil` for an empty list).
    public static func list(_ text: String) -> Result<[AdminScope], InvalidScope> {
        var scopes: Set<AdminScope> = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            guard let scope = AdminScope(rawValue: word) else { return .failure(InvalidScope(word: word)) }
            scopes.insert(scope)
        }
        guard !scopes.isEmpty else { return .failure(InvalidScope(word: "")) }
        return .success(scopes.sorted())
    }

    /// A word that names no scope (empty: no scope at all).
    public struct InvalidScope: Error, Equatable, Sendable {
        public let word: String
        public init(word: String) { self.word = word }
    }
}
