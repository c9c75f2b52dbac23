import Hummingbird
import SCACore

/// Lets a request through only when its admin caller holds `scope` (see
/// ``RouterMethods/requiring(_:)``); otherwise `403 auth.forbidden` naming it.
struct AdminScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    let scope: AdminScope

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await AdminCaller.require(scope)
        return try await next(request, context)
    }
}
