import Hummingbird
import SCACore
import SCAStorage

/// `/admin/v1`: user management for operators, behind the admin API key.
struct AdminRoutes<Context: RequestContext> {
    /// Records each change it makes in the audit trail, as ``DeviceService`` does.
    let users: UserService
    let devices: DeviceService
    let adminKey: String?
    let maxBodySize: Int

    struct Unblocked: Encodable { var userId: String; var unblocked = true }

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("admin/v1").add(middleware: AdminKeyMiddleware<Context>(adminKey: adminKey))
        group.post("users") { request, _ in
            let body = try await request.decodeJSON(CreateUserRequest.self, limit: maxBodySize)
            let user = try await users.create(body)
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
            return try Response.json(try await users.describe(try await users.update(userID: try await user(context).id, body)))
        }
        group.post("users/:id/totp") { _, context in
            try Response.json(try await users.enrollTOTP(userID: try await user(context).id), status: .created)
        }
        group.post("users/:id/unblock") { _, context in
            let user = try await user(context)
            try await users.unblock(userID: user.id)
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
