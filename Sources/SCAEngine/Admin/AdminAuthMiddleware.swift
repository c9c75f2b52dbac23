import Hummingbird
import SCACore

/// Authenticates every `/admin/v1` request (`Authorization: Bearer <credential>`: the bootstrap
/// key, a scoped admin key, or an operator's access token, see ``AdminAccess``) and names the
/// caller for the rest of the request: ``AdminCaller/current`` for the routes' scope checks,
/// `AuditTrail.actor` for the trail. It admits no route by itself: each route declares its
/// scope with ``RouterMethods/requiring(_:)``. With `tls.adminRequiresClientCertificate` a
/// request without a verified client certificate is refused before its credential is read.
package struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: AdminAccess

    package init(access: AdminAccess) {
        self.access = access
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if access.context.configuration.tls.adminRequiresClientCertificate, RequestInfo.current?.clientCertificate == nil {
            throw Problem.clientCertificateRequired
        }
        guard let presented = BearerCredentials.token(in: request.headers[.authorization]) else { throw Problem.unauthorized }
        let principal = try await access.authenticate(presented)
        return try await AdminCaller.$current.withValue(AdminCaller(principal: principal, access: access)) {
            try await AuditTrail.$actor.withValue(principal.auditActor) { try await next(request, context) }
        }
    }
}
