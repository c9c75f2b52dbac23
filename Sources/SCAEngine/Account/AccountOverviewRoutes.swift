import Hummingbird
import SCACore

/// `/v1/me/overview`, `/v1/me/sessions`, `/v1/me/partners` and `/v1/me/consents`: the user's
/// own account page in JSON, and the changes that take power away (first-party tokens only);
/// and the operator's `DELETE /admin/v1/users/{id}/partners/{clientId}`, the same revocation.
struct AccountOverviewRoutes<Context: RequestContext> {
    let overview: AccountOverviewService
    let access: AdminAccess

    func register(on router: some RouterMethods<Context>) {
        router.get("v1/me/overview") { request, _ in
            try Response.json(try await overview.overview(authorization: request.headers[.authorization]))
        }
        router.delete("v1/me/sessions") { request, _ in
            try Response.json(try await overview.endOtherSessions(authorization: request.headers[.authorization]))
        }
        router.delete("v1/me/sessions/:id") { request, context in
            try Response.json(
                try await overview.endSession(context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
        router.delete("v1/me/partners/:clientId") { request, context in
            try Response.json(
                try await overview.revokePartner(
                    context.parameters.require("clientId"), authorization: request.headers[.authorization]))
        }
        router.delete("v1/me/consents/:id") { request, context in
            try Response.json(
                try await overview.revokeConsent(context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
        let admin = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.usersWrite).delete("users/:id/partners/:clientId") { _, context in
            let userID = try context.parameters.require("id")
            guard InputRules.isWellFormedID(userID, prefix: "usr"), try await overview.store.user(id: userID) != nil else {
                throw Problem.userNotFound
            }
            return try Response.json(
                try await overview.revokePartner(context.parameters.require("clientId"), of: userID, asking: nil))
        }
    }
}
