import Hummingbird
import Logging
import SCACore
import SCALocalization
import SCAStorage

/// Turns every failure into problem JSON with a stable code, and refuses bodies that announce
/// themselves as too large before reading them. Unexpected errors are logged by type only and
/// answered with a generic 500: no stack trace or internal detail leaves the server.
///
/// A request that carries `Accept-Language` gets the problem's `title` and `detail` in the
/// language it prefers, when the catalogue words both (`Problem.localized(in:catalogue:)`),
/// and English otherwise; the answer says which in `Content-Language`, with
/// `Vary: Accept-Language`. Without the header the answer is English, as it always was.
package struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBodySize: Int
    /// The words of the problems an app may show a person, in every shipped language.
    let catalogue: Catalogue

    package init(maxBodySize: Int, catalogue: Catalogue) {
        self.maxBodySize = maxBodySize
        self.catalogue = catalogue
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodySize {
            return answer(.tooLarge(limit: maxBodySize), to: request)
        }
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return answer(problem, to: request)
        } catch is StoreUnavailable {
            return answer(.serverUnavailable, to: request)
        } catch is PasswordHashingBusy {
            return answer(.passwordHashingBusy, to: request)
        } catch let error as HTTPError {
            switch error.status {
            case .notFound: return answer(.notFound, to: request)
            case .contentTooLarge: return answer(.tooLarge(limit: maxBodySize), to: request)
            case .methodNotAllowed:
                return answer(.methodNotAllowed, to: request)
            default:
                return answer(
                    Problem(
                        status: error.status.code, code: error.status.code < 500 ? .requestInvalid : .internalError,
                        title: error.status.reasonPhrase),
                    to: request)
            }
        } catch {
            context.logger.error("unhandled error", metadata: ["error.type": "\(type(of: error))"])
            return answer(.internalError, to: request)
        }
    }

    /// The problem response, in the language the request prefers when it names one.
    private func answer(_ problem: Problem, to request: Request) -> Response {
        let ranges = request.headers[values: .acceptLanguage]
        guard !ranges.isEmpty else { return .problem(problem) }
        // English when the header names no shipped language: the API's own language, not the
        // configured default of the pages, which a client reading problems did not ask for.
        let language = LocaleNegotiation.language(
            uiLocales: nil, stored: nil, acceptLanguage: ranges.joined(separator: ", "), default: .english)
        let localized = problem.localized(in: language, catalogue: catalogue)
        var response = Response.problem(localized ?? problem)
        response.headers[.contentLanguage] = localized == nil ? Language.english.tag : language.tag
        response.headers[.vary] = "Accept-Language"
        return response
    }
}
