import Hummingbird
import SCACore

/// `/v1/me`: the user's own account settings, changed with a `settings_change` token.
struct AccountRoutes<Context: RequestContext> {
    let account: AccountService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.patch("v1/me") { request, _ in
            let body = try await request.decodeJSON(SettingsChangeRequest.self, limit: maxBodySize)
            return try Response.json(try await account.changeSettings(body, authorization: request.headers[.authorization]))
        }
    }
}
