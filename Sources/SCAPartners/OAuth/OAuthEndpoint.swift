import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SCACore
import SCAEngine

/// What every OAuth 2.0 endpoint (`/oauth2/token`, `/oauth2/revoke`, `/oauth2/bc-authorize`)
/// shares: a form body (RFC 6749 §3.2) and errors answered as RFC 6749 §5.2 JSON rather than
/// problem documents.
enum OAuthEndpoint {
    /// The endpoint's form body; anything else is `invalid_request`.
    static func form(of request: Request, maxBodySize: Int) async throws -> [String: String] {
        guard FormBody.isForm(request.headers[.contentType]) else {
            throw OAuthError.invalidRequest("the body must be application/x-www-form-urlencoded")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodySize)
        } catch {
            throw OAuthError.invalidRequest("the body is too large")
        }
        guard let form = FormBody.parse(String(buffer: buffer)) else {
            throw OAuthError.invalidRequest("the body is malformed or repeats a parameter")
        }
        return form
    }

    /// Runs an endpoint: its `OAuthError`s become RFC 6749 JSON, other failures problems, and
    /// no answer may be cached.
    static func answer(_ body: () async throws -> Response) async -> Response {
        var response: Response
        do {
            response = try await body()
        } catch let error as OAuthError {
            let data = (try? JSONEncoder().encode(OAuthErrorBody(error: error.error, errorDescription: error.description))) ?? Data()
            response = Response(
                status: HTTPResponse.Status(code: error.status), headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
            if error.basicChallenge { response.headers[.wwwAuthenticate] = "Basic realm=\"sca-server\"" }
            if let retryAfter = error.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        } catch let problem as Problem {
            response = Response.problem(problem)
        } catch {
            response = Response.problem(.internalError)
        }
        response.headers[.cacheControl] = "no-store"
        response.headers[HTTPField.Name("Pragma")!] = "no-cache"
        return response
    }
}
