import Hummingbird
import SCACore

/// A user's profile: `GET /v1/me`, `PUT /v1/me/profile`, and the operator's
/// `PUT /admin/v1/users/{id}/profile` (scope `users:write`).
struct ProfileRoutes<Context: RequestContext> {
    let profiles: ProfileService
    let access: AdminAccess
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.get("v1/me") { request, _ in
            try Response.json(try await profiles.me(authorization: request.headers[.authorization]))
        }
        router.put("v1/me/profile") { request, _ in
            let body = try await request.decodeJSON(ProfileRequest.self, limit: maxBodySize)
            return try Response.json(try await profiles.changeOwn(body, authorization: request.headers[.authorization]))
        }
        let admin = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.usersWrite).put("users/:id/profile") { request, context in
            let body = try await request.decodeJSON(ProfileRequest.self, limit: maxBodySize)
            let userID = try context.parameters.require("id")
            guard InputRules.isWellFormedID(userID, prefix: "usr") else { throw Problem.userNotFound }
            return try Response.json(try await profiles.changeByOperator(body, userID: userID))
        }
    }
}
