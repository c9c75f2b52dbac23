import Hummingbird
import SCACore

/// Admits a request only with `Authorization: Bearer <admin key>`, compared in constant time.
struct AdminKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let adminKey: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let adminKey else { throw Problem.adminDisabled }
        guard let presented = BearerCredentials.token(in: request.headers[.authorization]),
            ConstantTime.equals(Array(presented.utf8), Array(adminKey.utf8))
        else { throw Problem.unauthorized }
        // What services record from here on was done by an operator.
        return try await AuditTrail.$actor.withValue("admin") { try await next(request, context) }
    }
}
