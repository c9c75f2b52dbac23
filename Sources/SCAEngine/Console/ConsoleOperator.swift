import Foundation
import SCACore

/// The operator behind one console request: who they are and what their roles grant now.
package struct ConsoleOperator: Sendable {
    package let userID: String
    package let email: String
    /// Sorted; free-form permissions included (``ConsoleOperator/revealPermission``).
    package let permissions: [String]
    let stepUp: OperatorStepUp

    /// Shows an operator the full e-mail addresses and phone numbers of users; without it they
    /// see them masked.
    package static let revealPermission = "users:reveal"

    /// Whether the operator's roles grant `scope` (whether an action is shown; doing it also
    /// needs a fresh authentication).
    package func may(_ scope: AdminScope) -> Bool { permissions.contains(scope.rawValue) }

    package var mayReveal: Bool { permissions.contains(Self.revealPermission) }

    var auditActor: String { "operator:\(userID)" }
}
