import Foundation
import SCACore

/// The admin request being served: its authenticated caller and the checks that decide each
/// scope. Set by ``AdminAuthMiddleware`` for the rest of the request (a task local, so it
/// works with any request context); read by ``AdminScopeMiddleware`` and by a handler that
/// needs to know who acts.
struct AdminCaller: Sendable {
    let principal: AdminPrincipal
    let access: AdminAccess

    @TaskLocal static var current: AdminCaller?

    /// - Throws: `Problem` 403 `auth.forbidden` naming the missing scope or permission (the
    ///   refusal is recorded in the audit trail); 401 outside an authenticated admin request.
    static func require(_ scope: AdminScope) async throws {
        guard let caller = current else { throw Problem.unauthorized }
        try await caller.access.authorize(caller.principal, for: scope)
    }
}
