import Hummingbird
import SCACore

extension RouterMethods {
    /// Routes registered on the result need `scope`: one line per admin route, under a group
    /// carrying ``AdminAuthMiddleware``:
    ///
    /// ```swift
    /// admin.requiring(.usersUnblock).post("users/:id/unblock") { … }
    /// ```
    package func requiring(_ scope: AdminScope) -> RouterGroup<Context> {
        group().add(middleware: AdminScopeMiddleware<Context>(scope: scope))
    }
}
