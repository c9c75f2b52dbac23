import Foundation
import HTTPTypes
import Hummingbird
import SCACore
import SCAEngine

/// Partner integration's API: OpenID discovery, the OAuth 2.0 endpoints (the authorization
/// endpoint is a hosted page's), the consents API, and partner clients under the admin API.
struct PartnerRoutes<Context: RequestContext> {
    let partners: PartnerService
    let oauth: OAuthService
    let consents: ConsentService
    /// Who may use the admin API: partner clients need `clients:read` / `clients:write`.
    let access: AdminAccess
    let maxBodySize: Int

    struct Removed: Encodable { var clientId: String; var removed = true }
    struct StatusReport: Decodable { var status: ConsentStatus }

    func register(on router: some RouterMethods<Context>) {
        // Discovery.
        router.get(".well-known/openid-configuration") { _, _ in try Response.json(oauth.discovery()) }
        router.get(".well-known/oauth-authorization-server") { _, _ in try Response.json(oauth.discovery()) }

        // OAuth 2.0 endpoints: RFC 6749 error JSON, not problem JSON.
        router.post("oauth2/token") { request, _ in
            var response = await OAuthEndpoint.answer {
                let form = try await OAuthEndpoint.form(of: request, maxBodySize: maxBodySize)
                return try Response.json(try await oauth.token(form, presenting: PresentedToken(request, baseURL: oauth.issuer)))
            }
            // The nonce for the client's next DPoP proof (RFC 9449 §8), on every answer.
            if let nonce = oauth.dpopNonce() { response.headers[DPoPNonce.headerField] = nonce }
            return response
        }
        router.post("oauth2/par") { request, _ in
            await OAuthEndpoint.answer {
                let form = try await OAuthEndpoint.form(of: request, maxBodySize: maxBodySize)
                return try Response.json(try await oauth.push(form, authorization: request.headers[.authorization]), status: .created)
            }
        }
        router.post("oauth2/introspect") { request, _ in
            await OAuthEndpoint.answer {
                let form = try await OAuthEndpoint.form(of: request, maxBodySize: maxBodySize)
                let authorization = request.headers[.authorization]
                // RFC 9701: a signed answer for a client that asks for one.
                if request.headers[.accept]?.contains("application/\(OAuthService.signedIntrospectionType)") == true {
                    let signed = try await oauth.signedIntrospection(form, authorization: authorization)
                    return Response(
                        status: .ok,
                        headers: [.contentType: "application/\(OAuthService.signedIntrospectionType)", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: signed)))
                }
                return try Response.json(try await oauth.introspect(form, authorization: authorization))
            }
        }
        router.post("oauth2/revoke") { request, _ in
            await OAuthEndpoint.answer {
                let form = try await OAuthEndpoint.form(of: request, maxBodySize: maxBodySize)
                try await oauth.revoke(form, authorization: request.headers[.authorization])
                return Response(status: .ok, headers: [.cacheControl: "no-store"])
            }
        }
        router.get("oauth2/userinfo") { request, _ in
            do {
                return try Response.json(try await oauth.userinfo(presenting: PresentedToken(request, baseURL: oauth.issuer)))
            } catch let problem as Problem where problem.status == 401 {
                var response = Response.problem(problem)
                // Both schemes this route takes (RFC 6750 §3, RFC 9449 §7.1): a client learns a
                // key-bound token needs DPoP, and with which algorithms.
                response.headers[.wwwAuthenticate] =
                    "Bearer error=\"invalid_token\", DPoP error=\"invalid_token\", algs=\"\(PublicJWK.fapiAlgorithms.joined(separator: " "))\""
                return response
            }
        }

        // Consents API (a partner's bearer token).
        let api = router.group("v1/consents")
        api.post { request, _ in
            let body = try await request.decodeJSON(CreateConsentRequest.self, limit: maxBodySize)
            return try Response.json(
                try await consents.create(body, presenting: PresentedToken(request, baseURL: oauth.issuer)), status: .created)
        }
        api.get(":id") { request, context in
            try Response.json(try await consents.get(try context.parameters.require("id"), presenting: PresentedToken(request, baseURL: oauth.issuer)))
        }
        api.delete(":id") { request, context in
            try Response.json(try await consents.cancel(try context.parameters.require("id"), presenting: PresentedToken(request, baseURL: oauth.issuer)))
        }
        api.post(":id/status") { request, context in
            let body = try await request.decodeJSON(StatusReport.self, limit: maxBodySize)
            return try Response.json(try await consents.report(
                try context.parameters.require("id"), status: body.status, presenting: PresentedToken(request, baseURL: oauth.issuer)))
        }

        // Partner clients (admin API, scopes clients:read / clients:write).
        let admin = router.group("admin/v1/clients").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.clientsWrite).post { request, _ in
            let body = try await request.decodeJSON(CreatePartnerClientRequest.self, limit: maxBodySize)
            return try Response.json(try await partners.create(body), status: .created)
        }
        admin.requiring(.clientsRead).get { _, _ in try Response.json(try await partners.list()) }
        admin.requiring(.clientsWrite).delete(":id") { _, context in
            let id = try context.parameters.require("id")
            try await partners.remove(clientID: id)
            return try Response.json(Removed(clientId: id))
        }
    }
}
