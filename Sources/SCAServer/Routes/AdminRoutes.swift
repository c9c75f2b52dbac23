import Hummingbird
import SCACore
import SCAStorage

/// `/admin/v1`: user management for operators, behind the admin API key.
struct AdminRoutes<Context: RequestContext> {
    let users: UserService
    /// The changes go through here, so each is recorded in the audit trail.
    let admin: AdminActions
    let devices: DeviceService
    let adminKey: String?
    let maxBodySize: Int

    struct Unblocked: Encodable { var userId: String; var unblocked = true }

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("admin/v1").add(middleware: AdminKeyMiddleware<Context>(adminKey: adminKey))
        group.post("users") { request, _ in
            let body = try await request.decodeJSON(CreateUserRequest.self, limit: maxBodySize)
            let user = try await admin.createUser(body)
            return try Response.json(CreatedUserResponse(userId: user.id), status: .created)
        }
        group.get("users") { _, _ in
            var described: [UserResponse] = []
            for user in try await users.list() { described.append(try await users.describe(user)) }
            return try Response.json(described)
        }
        group.get("users/:id") { _, context in
            try Response.json(try await users.describe(try await user(context)))
        }
        group.patch("users/:id") { request, context in
            let body = try await request.decodeJSON(UpdateUserRequest.self, limit: maxBodySize)
            return try Response.json(try await users.describe(try await admin.updateUser(userID: try await user(context).id, body)))
        }
        group.post("users/:id/totp") { _, context in
            try Response.json(try await admin.enrollTOTP(userID: try await user(context).id), status: .created)
        }
        group.post("users/:id/unblock") { _, context in
            let user = try await user(context)
            try await admin.unblock(userID: user.id)
            return try Response.json(Unblocked(userId: user.id))
        }
        group.post("users/:id/activations") { _, context in
            try Response.json(try await devices.issueActivationCode(for: try await user(context).id), status: .created)
        }
        group.post("devices/:id/block") { _, context in
            try Response.json(try await devices.setStatus(of: context.parameters.require("id"), to: .blocked))
        }
        group.post("devices/:id/unblock") { _, context in
            try Response.json(try await devices.setStatus(of: context.parameters.require("id"), to: .active))
        }
        group.delete("devices/:id") { _, context in
            try Response.json(try await devices.setStatus(of: context.parameters.require("id"), to: .removed))
        }
    }

    private func user(_ context: Context) async throws -> UserRecord {
        let id = try context.parameters.require("id")
        guard InputRules.isWellFormedID(id, prefix: "usr"), let user = try await users.find(id) else {
            throw Problem.userNotFound
        }
        return user
    }
}

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
