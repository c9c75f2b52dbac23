import Hummingbird
import SCACore

/// `/v1/tokens`: refresh, revoke, introspect.
struct TokenRoutes<Context: RequestContext> {
    let tokens: TokenService
    let maxBodySize: Int

    /// The answer to a revocation: always the same, whether the token was known or not.
    struct Revoked: Encodable { var revoked = true }

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("v1/tokens")
        group.post("refresh") { request, _ in
            let body = try await request.decodeJSON(RefreshRequest.self, limit: maxBodySize)
            return try Response.json(try await tokens.refresh(body.refreshToken, issuedTo: nil))
        }
        group.post("revoke") { request, _ in
            let body = try await request.decodeJSON(RevokeRequest.self, limit: maxBodySize)
            try await tokens.revoke(body.token)
            return try Response.json(Revoked())
        }
        group.post("introspect") { request, _ in
            let body = try await request.decodeJSON(IntrospectRequest.self, limit: maxBodySize)
            return try Response.json(IntrospectionBody(response: try await tokens.introspect(body)))
        }
    }
}
