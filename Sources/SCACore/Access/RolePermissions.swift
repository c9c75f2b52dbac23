/// Which permissions a user's roles grant, from the configured role definitions
/// (`roles.<role>`). Access tokens carry both lists, sorted and without duplicates, so the
/// services behind the server can authorise without calling back.
///
/// Permissions are free-form names (`users:read`, `payments:approve`): the ones that are
/// ``AdminScope`` values also open the admin API to an operator's token. A role that is not
/// defined grants nothing.
package struct RolePermissions: Sendable, Equatable {
    /// Role name → the permissions it grants.
    package var definitions: [String: [String]]

    package init(_ definitions: [String: [String]] = [:]) {
        self.definitions = definitions
    }

    /// The roles as a token carries them: sorted, each once.
    package static func normalized(_ roles: [String]) -> [String] {
        Array(Set(roles)).sorted()
    }

    /// Every permission the roles grant: sorted, each once.
    package func permissions(for roles: [String]) -> [String] {
        Array(Set(roles.flatMap { definitions[$0] ?? [] })).sorted()
    }

    /// Whether `name` may name a role in the configuration: a lower-case letter, then up to 63
    /// lower-case letters, digits or `_`, so that `SCA_ROLES_<ROLE>` maps back to it.
    package static func isValidRoleName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.unicodeScalars.count <= 64 else {
            return false
        }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Whether `name` may name a permission: 1 to 64 of lower-case letters, digits, `:`, `_`,
    /// `-` and `.`.
    package static func isValidPermission(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= 64
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || [":", "_", "-", "."].contains($0)
            }
    }
}
