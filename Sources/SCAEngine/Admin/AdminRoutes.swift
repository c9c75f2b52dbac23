import Foundation
import Hummingbird
import SCACore
import SCAStorage

/// `/admin/v1`: user and device management for operators. Every request is authenticated by
/// ``AdminAuthMiddleware`` (bootstrap key, scoped key or operator token) and every route
/// declares the one ``AdminScope`` it needs with `requiring(_:)`.
struct AdminRoutes<Context: RequestContext> {
    /// Records each change it makes in the audit trail, as ``DeviceService`` does.
    let users: UserService
    let devices: DeviceService
    let access: AdminAccess
    /// The trail `GET /admin/v1/audit` reads (scope `audit:read`).
    let audit: AuditTrail
    /// The chain's check against the checkpoint last written to `checkpointFile`
    /// (`GET /admin/v1/audit/verify`).
    let checkpoints: AuditCheckpoints
    let checkpointFile: String?
    let maxBodySize: Int

    struct Unblocked: Encodable { var userId: String; var unblocked = true }
    struct TOTPRemoved: Encodable { var userId: String; var totp = false }
    struct SessionsEnded: Encodable { var userId: String; var ended: Int }

    /// A page of the audit trail, each entry as `sca-server audit export` writes it.
    struct AuditPage: Encodable {
        var entries: [JSONValue]
        /// The `after` of the next page; nil at the end.
        var next: Int64?
    }

    func register(on router: some RouterMethods<Context>) {
        let admin = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.usersWrite).post("users") { request, _ in
            let body = try await request.decodeJSON(CreateUserRequest.self, limit: maxBodySize)
            let user = try await users.create(body)
            return try Response.json(CreatedUserResponse(userId: user.id), status: .created)
        }
        admin.requiring(.usersRead).get("users") { request, _ in
            // `search`: the console's search (an id, a device id, a phone, an e-mail or its start),
            // a page of it: `after` the last user id of the page before, `limit` 1 to 100 (25).
            // Both are checked even without a search, so a wrong one never passes unnoticed.
            let after = request.uri.queryParameters.get("after")
            let limit = request.uri.queryParameters.get("limit").map { Int($0) } ?? ConsoleService.searchLimit
            guard let limit, (1...100).contains(limit) else { throw Problem.invalidRequest("limit must be 1 to 100") }
            if let after, !InputRules.isWellFormedID(after, prefix: "usr") {
                throw Problem.invalidRequest("after must be a user id")
            }
            let found: [UserRecord]
            if let search = request.uri.queryParameters.get("search") {
                guard search.utf8.count <= InputRules.maxEmailLength else {
                    throw Problem.invalidRequest("search must be at most 254 bytes")
                }
                found = try await users.search(search, after: after, limit: limit)
            } else {
                found = try await users.list()
            }
            var described: [UserResponse] = []
            for user in found { described.append(try await users.describe(user)) }
            return try Response.json(described)
        }
        admin.requiring(.usersRead).get("users/:id") { _, context in
            try Response.json(try await users.describe(try await user(context)))
        }
        admin.requiring(.usersRead).get("users/:id/export") { _, context in
            try Response.json(try await users.export(userID: try await user(context).id))
        }
        admin.requiring(.usersWrite).patch("users/:id") { request, context in
            let body = try await request.decodeJSON(UpdateUserRequest.self, limit: maxBodySize)
            return try Response.json(try await users.describe(try await users.update(userID: try await user(context).id, body)))
        }
        admin.requiring(.usersWrite).delete("users/:id") { _, context in
            try Response.json(try await users.erase(userID: try await user(context).id))
        }
        admin.requiring(.usersRead).get("users/:id/events") { request, context in
            let limit = request.uri.queryParameters.get("limit").map { Int($0) } ?? ConsoleService.timelineLength
            guard let limit, (1...1_000).contains(limit) else { throw Problem.invalidRequest("limit must be 1 to 1000") }
            let entries = try await users.timeline(of: try await user(context).id, limit: limit)
            return try Response.json(AuditPage(entries: entries.map(\.exportJSON), next: nil))
        }
        admin.requiring(.usersWrite).delete("users/:id/sessions") { _, context in
            let target = try await user(context)
            return try Response.json(SessionsEnded(userId: target.id, ended: try await users.endSessions(of: target.id)))
        }
        admin.requiring(.usersWrite).delete("users/:id/sessions/:session") { _, context in
            let target = try await user(context)
            try await users.endSession(try context.parameters.require("session"), of: target.id)
            return try Response.json(SessionsEnded(userId: target.id, ended: 1))
        }
        admin.requiring(.usersRoles).put("users/:id/roles") { request, context in
            let body = try await request.decodeJSON(SetRolesRequest.self, limit: maxBodySize)
            let target = try await user(context)
            var operatorID: String?
            if case .operator(let id, _) = AdminCaller.current?.principal { operatorID = id }
            let updated = try await users.setRoles(userID: target.id, body.roles, byOperator: operatorID)
            return try Response.json(try await users.describe(updated))
        }
        admin.requiring(.usersWrite).post("users/:id/totp") { _, context in
            try Response.json(try await users.enrollTOTP(userID: try await user(context).id), status: .created)
        }
        admin.requiring(.usersWrite).delete("users/:id/totp") { _, context in
            let user = try await user(context)
            try await users.removeTOTP(userID: user.id)
            return try Response.json(TOTPRemoved(userId: user.id))
        }
        admin.requiring(.usersUnblock).post("users/:id/unblock") { _, context in
            let user = try await user(context)
            try await users.unblock(userID: user.id)
            return try Response.json(Unblocked(userId: user.id))
        }
        admin.requiring(.devicesWrite).post("users/:id/activations") { _, context in
            try Response.json(try await devices.issueActivationCode(for: try await user(context).id), status: .created)
        }
        admin.requiring(.devicesWrite).post("devices/:id/block") { _, context in
            try Response.json(try await devices.setStatus(of: context.parameters.require("id"), to: .blocked))
        }
        admin.requiring(.devicesWrite).post("devices/:id/unblock") { _, context in
            try Response.json(try await devices.setStatus(of: context.parameters.require("id"), to: .active))
        }
        admin.requiring(.devicesWrite).delete("devices/:id") { _, context in
            try Response.json(try await devices.setStatus(of: context.parameters.require("id"), to: .removed))
        }
        admin.requiring(.auditRead).get("audit") { request, _ in
            let query = request.uri.queryParameters
            let after = query.get("after").map { Int64($0) } ?? 0
            let limit = query.get("limit").map { Int($0) } ?? 100
            guard let after, after >= 0, let limit, (1...1_000).contains(limit) else {
                throw Problem.invalidRequest("after must be a sequence number (0 or more) and limit 1 to 1000")
            }
            let entries = try await audit.store.auditEntries(matching: try auditFilter(request), .after(after), limit: limit)
            return try Response.json(
                AuditPage(entries: entries.map(\.exportJSON), next: entries.count == limit ? entries.last?.sequence : nil))
        }
        // The console's export: the lines of `sca-server audit export`, for the filtered range.
        admin.requiring(.auditRead).get("audit/export") { request, _ in
            let export = AuditExport(store: audit.store, filter: try auditFilter(request))
            return Response(
                status: .ok, headers: [.contentType: AuditExport.contentType, .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    try await export.write { try await writer.write(ByteBuffer(bytes: $0)) }
                    try await writer.finish(nil)
                })
        }
        admin.requiring(.auditRead).get("audit/verify") { _, _ in
            try Response.json(try await checkpoints.checkAgainstLastWritten(checkpointFile))
        }
    }

    /// `userId`, `event`, `from` and `to` (RFC 3339) of an audit request. A parameter given
    /// empty is refused, as the schema says: a script means a value it failed to fill in, not
    /// "no condition" (the console's form, which sends its empty fields, reads them itself).
    private func auditFilter(_ request: Request) throws -> AuditFilter {
        let query = request.uri.queryParameters
        for name in ["userId", "event", "from", "to"] where query.get(name)?.isEmpty == true {
            throw Problem.invalidRequest("\(name) must not be empty")
        }
        func time(_ name: String) throws -> Date? {
            guard let text = query.get(name) else { return nil }
            guard let date = AuditFilter.time(text) else { throw Problem.invalidRequest("\(name) must be an RFC 3339 time") }
            return date
        }
        return try AuditFilter.checked(
            userID: query.get("userId"), event: query.get("event"), from: try time("from"), to: try time("to"))
    }

    private func user(_ context: Context) async throws -> UserRecord {
        let id = try context.parameters.require("id")
        guard InputRules.isWellFormedID(id, prefix: "usr"), let user = try await users.find(id) else {
            throw Problem.userNotFound
        }
        return user
    }
}
