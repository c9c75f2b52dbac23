import Hummingbird
import SCACore

/// `POST /v1/password-reset`, and the operator's `DELETE /admin/v1/users/{id}/restriction`.
struct PasswordResetRoutes<Context: RequestContext> {
    let resets: PasswordResetService
    let access: AdminAccess
    let maxBodySize: Int

    struct RestrictionLifted: Encodable { var userId: String; var restricted = false }

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/password-reset") { request, _ in
            let body = try await request.decodeJSON(PasswordResetRequest.self, limit: maxBodySize)
            return try Response.json(try await resets.reset(body, authorization: request.headers[.authorization]))
        }
        let admin = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.usersUnblock).delete("users/:id/restriction") { _, context in
            let userID = try context.parameters.require("id")
            try await resets.liftRestriction(userID: userID)
            return try Response.json(RestrictionLifted(userId: userID))
        }
    }
}
