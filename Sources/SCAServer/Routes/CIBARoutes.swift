import Foundation
import HTTPTypes
import Hummingbird
import SCACore

/// `POST /oauth2/bc-authorize` (issue 10): OpenID CIBA in poll mode over decoupled operations.
/// Answers, like the other OAuth endpoints, RFC 6749 error JSON rather than problems.
struct CIBARoutes<Context: RequestContext> {
    let oauth: OAuthService
    let ciba: CIBAService
    let operations: OperationService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("oauth2/bc-authorize") { request, _ in
            var response: Response
            do {
                guard FormBody.isForm(request.headers[.contentType]) else {
                    throw OAuthError.invalidRequest("the body must be application/x-www-form-urlencoded")
                }
                let buffer = try await request.body.collect(upTo: maxBodySize)
                guard let form = FormBody.parse(String(buffer: buffer)) else {
                    throw OAuthError.invalidRequest("the body is malformed or repeats a parameter")
                }
                let client = try await oauth.authenticate(form, authorization: request.headers[.authorization])
                let answer = try await AuditTrail.$actor.withValue("client:\(client.id)") {
                    try await ciba.authorize(form, client: client) { try await operations.create($0, by: .partner(clientID: client.id)) }
                }
                response = try Response.json(answer)
            } catch let error as OAuthError {
                let data = (try? JSONEncoder().encode(OAuthErrorBody(error: error.error, errorDescription: error.description))) ?? Data()
                response = Response(
                    status: HTTPResponse.Status(code: error.status), headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
                if error.basicChallenge { response.headers[.wwwAuthenticate] = "Basic realm=\"sca-server\"" }
            }
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}
