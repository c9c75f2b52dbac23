import Hummingbird
import Logging
import SCACore
import SCAStorage

/// Turns every failure into problem JSON with a stable code, and refuses bodies that announce
/// themselves as too large before reading them. Unexpected errors are logged by type only and
/// answered with a generic 500: no stack trace or internal detail leaves the server.
package struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxBodySize: Int

    package init(maxBodySize: Int) {
        self.maxBodySize = maxBodySize
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodySize {
            return .problem(.tooLarge(limit: maxBodySize))
        }
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return .problem(problem)
        } catch is StoreUnavailable {
            return .problem(.serverUnavailable)
        } catch is PasswordHashingBusy {
            return .problem(.passwordHashingBusy)
        } catch let error as HTTPError {
            switch error.status {
            case .notFound: return .problem(.notFound)
            case .contentTooLarge: return .problem(.tooLarge(limit: maxBodySize))
            case .methodNotAllowed:
                return .problem(.methodNotAllowed)
            default:
                return .problem(Problem(
                    status: error.status.code, code: error.status.code < 500 ? .requestInvalid : .internalError,
                    title: error.status.reasonPhrase))
            }
        } catch {
            context.logger.error("unhandled error", metadata: ["error.type": "\(type(of: error))"])
            return .problem(.internalError)
        }
    }
}
