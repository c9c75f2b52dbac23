import Foundation
import HTTPTypes
import Hummingbird
import SCACore

/// Partner integration: OpenID discovery, the OAuth 2.0 endpoints, the hosted sign-in
/// and consent pages, the consents API, and partner clients under the admin API.
struct PartnerRoutes<Context: RequestContext> {
    let partners: PartnerService
    let oauth: OAuthService
    let consents: ConsentService
    let signIn: HostedSignIn
    let consentPages: HostedConsent
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
        router.get("oauth2/authorize") { request, _ in
            guard let query = FormBody.parse(request.uri.query ?? "") else {
                return signIn.renderer.page(
                    "error", title: "Sign-in not possible",
                    ["heading": "Sign-in not possible", "message": "The request was malformed: a parameter appears twice."],
                    status: .badRequest)
            }
            return try await signIn.authorize(query)
        }
        router.post("oauth2/token") { request, _ in
            await OAuthEndpoint.answer {
                let form = try await OAuthEndpoint.form(of: request, maxBodySize: maxBodySize)
                return try Response.json(try await oauth.token(form, authorization: request.headers[.authorization]))
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
                return try Response.json(try await oauth.userinfo(authorization: request.headers[.authorization]))
            } catch let problem as Problem where problem.status == 401 {
                var response = Response.problem(problem)
                response.headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\""
                return response
            }
        }

        // Hosted sign-in pages.
        router.get("hosted/style.css") { _, _ in PageRenderer.stylesheet() }
        router.get("hosted/passkey.js") { _, _ in PageRenderer.passkeyScript() }
        router.post("signin/passkey") { request, _ in try await signIn.passkey(request, form: try await pageForm(request)) }
        router.get("signin") { request, _ in try await signIn.show(request) }
        router.post("signin/email") { request, _ in try await signIn.email(request, form: try await pageForm(request)) }
        router.post("signin/send") { request, _ in try await signIn.send(request, form: try await pageForm(request)) }
        router.post("signin/proof") { request, _ in try await signIn.proof(request, form: try await pageForm(request)) }
        router.post("signin/cancel") { request, _ in try await signIn.cancel(request, form: try await pageForm(request)) }

        // Hosted consent pages.
        router.get("consents/:id") { request, context in
            try await consentPages.show(try context.parameters.require("id"), request: request)
        }
        router.post("consents/:id/send") { request, context in
            try await consentPages.send(try context.parameters.require("id"), request: request, form: try await pageForm(request))
        }
        router.post("consents/:id/proof") { request, context in
            try await consentPages.proof(try context.parameters.require("id"), request: request, form: try await pageForm(request))
        }
        router.post("consents/:id/refuse") { request, context in
            try await consentPages.refuse(try context.parameters.require("id"), request: request, form: try await pageForm(request))
        }

        // "Approve on your phone" on the consent page.
        if let phone = consentPages.phone {
            router.get("hosted/phone.js") { _, _ in PageRenderer.phoneScript() }
            router.post("consents/:id/phone") { request, context in
                try await phone.start(try context.parameters.require("id"), request: request, form: try await pageForm(request))
            }
            router.get("consents/:id/phone") { request, context in
                try await phone.show(try context.parameters.require("id"), request: request)
            }
            router.post("consents/:id/phone/status") { request, context in
                try await phone.status(try context.parameters.require("id"), request: request, form: try await pageForm(request))
            }
            router.post("consents/:id/phone/cancel") { request, context in
                try await phone.cancel(try context.parameters.require("id"), request: request, form: try await pageForm(request))
            }
        }

        // Consents API (a partner's bearer token).
        let api = router.group("v1/consents")
        api.post { request, _ in
            let body = try await request.decodeJSON(CreateConsentRequest.self, limit: maxBodySize)
            return try Response.json(
                try await consents.create(body, authorization: request.headers[.authorization]), status: .created)
        }
        api.get(":id") { request, context in
            try Response.json(try await consents.get(try context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
        api.delete(":id") { request, context in
            try Response.json(try await consents.cancel(try context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
        api.post(":id/status") { request, context in
            let body = try await request.decodeJSON(StatusReport.self, limit: maxBodySize)
            return try Response.json(try await consents.report(
                try context.parameters.require("id"), status: body.status, authorization: request.headers[.authorization]))
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

    /// A form body of a hosted page; anything else reads as an empty form (which no CSRF check passes).
    private func pageForm(_ request: Request) async throws -> [String: String] {
        guard FormBody.isForm(request.headers[.contentType]) else { return [:] }
        let buffer = try await request.body.collect(upTo: maxBodySize)
        return FormBody.parse(String(buffer: buffer)) ?? [:]
    }
}
