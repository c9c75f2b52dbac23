import Foundation
import SCACore

/// Who calls the admin API, once authenticated, and what they may do.
enum AdminPrincipal: Sendable, Equatable {
    /// The configured `adminKey`: every scope.
    case bootstrap
    /// A scoped key, by name.
    case key(id: String, name: String, scopes: [AdminScope])
    /// A back-office user with a token of their own; every use is checked against the step-up rule.
    case `operator`(userID: String, stepUp: OperatorStepUp)

    /// The audit trail's `actor` for what this caller does: `admin` (the bootstrap key),
    /// `key:<name>` or `operator:<user id>`.
    var auditActor: String {
        switch self {
        case .bootstrap: "admin"
        case .key(_, let name, _): "key:\(name)"
        case .operator(let userID, _): "operator:\(userID)"
        }
    }

    /// Nil when the caller may use `scope` at `now`; otherwise the refusal, naming what is missing.
    func refusal(for scope: AdminScope, now: Date) -> Problem? {
        switch self {
        case .bootstrap:
            return nil
        case .key(_, let name, let scopes):
            return scopes.contains(scope) ? nil : .adminScopeMissing(scope, keyName: name)
        case .operator(_, let stepUp):
            return stepUp.refusal(for: scope, now: now).map(Problem.operatorRefused)
        }
    }
}
