import Foundation
import HTTPTypes
import Hummingbird
import SCACore
import SCAEngine

/// `POST /oauth2/bc-authorize`: OpenID CIBA in poll and ping modes over decoupled operations.
/// Answers, like the other OAuth endpoints, RFC 6749 error JSON rather than problems.
struct CIBARoutes<Context: RequestContext> {
    let oauth: OAuthService
    let ciba: CIBAService
    let operations: OperationService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("oauth2/bc-authorize") { request, _ in
            await OAuthEndpoint.answer {
                let form = try await OAuthEndpoint.form(of: request, maxBodySize: maxBodySize)
                let client = try await oauth.authenticate(form, authorization: request.headers[.authorization])
                let answer = try await AuditTrail.$actor.withValue("client:\(client.id)") {
                    try await ciba.authorize(form, client: client) {
                        try await operations.create($0, by: .partner(clientID: client.id), scopes: $1, notificationToken: $2)
                    }
                }
                return try Response.json(answer)
            }
        }
    }
}
