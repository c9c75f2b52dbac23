import Hummingbird
import SCACore

/// `/v1/passkeys`: registering a passkey after SCA, and the user's own passkeys.
struct PasskeyRoutes<Context: RequestContext> {
    let passkeys: PasskeyService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/passkeys/registration/options") { request, _ in
            try Response.json(try await passkeys.registrationOptions(authorization: request.headers[.authorization]))
        }
        router.post("v1/passkeys") { request, _ in
            let body = try await request.decodeJSON(RegisterPasskeyRequest.self, limit: maxBodySize)
            return try Response.json(
                try await passkeys.register(body, authorization: request.headers[.authorization]), status: .created)
        }
        router.get("v1/passkeys") { request, _ in
            try Response.json(try await passkeys.passkeys(authorization: request.headers[.authorization]))
        }
        router.delete("v1/passkeys/:id") { request, context in
            try Response.json(
                try await passkeys.remove(context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
    }
}

/// `/admin/v1`'s passkey routes, behind the admin API key like ``AdminRoutes``.
struct PasskeyAdminRoutes<Context: RequestContext> {
    let passkeys: PasskeyService
    let users: UserService
    /// Who may use the admin API: passkeys are authenticators, under the `devices` scopes.
    let access: AdminAccess

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        group.requiring(.devicesRead).get("users/:id/passkeys") { _, context in
            let id = try context.parameters.require("id")
            guard InputRules.isWellFormedID(id, prefix: "usr"), try await users.find(id) != nil else { throw Problem.userNotFound }
            return try Response.json(try await passkeys.passkeys(of: id))
        }
        group.requiring(.devicesWrite).delete("passkeys/:id") { _, context in
            try Response.json(try await passkeys.remove(context.parameters.require("id")))
        }
    }
}
