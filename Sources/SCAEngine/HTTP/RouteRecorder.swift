import HTTPTypes
import Hummingbird

/// Registers routes on a router while noting each path's methods, so that afterwards every
/// other method on a known path, whatever its name (`PATCH`, `QUERY`, `FOO`), answers
/// `405 request.method_not_allowed` with an `Allow` header (RFC 9110 §15.5.6) instead of
/// Hummingbird's `404`.
package final class RouteRecorder<Context: RequestContext>: RouterMethods {
    private let router: Router<Context>
    /// Paths in registration order, each with its methods.
    private var paths: [(path: RouterPath, methods: [HTTPRequest.Method])] = []

    @discardableResult package func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        if let index = paths.firstIndex(where: { $0.path.description == path.description }) {
            paths[index].methods.append(method)
        } else {
            paths.append((path, [method]))
        }
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult package func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    package init(_ router: Router<Context>) {
        self.router = router
    }

    /// Answers `405` with `Allow` for any method a recorded path lacks. Added after every
    /// route, the middleware only sees requests the router found no responder for, so it
    /// stands in front of the `404` alone.
    package func answerOtherMethods() {
        router.add(middleware: MethodNotAllowedMiddleware(paths: paths.map { ($0.path, $0.methods.map(\.rawValue).joined(separator: ", ")) }))
    }
}

/// For a request no route answered: `405` with `Allow` when its path is a known one (so the
/// method is what is wrong), else on to the `404`.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each known path with the value of its `Allow` header.
    let paths: [(path: RouterPath, allow: String)]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        // As the router does, a literal segment wins over a capture: `/a/b` over `/a/{id}`.
        let candidates = paths.filter { Self.matches($0.path, segments) }
        guard let known = candidates.max(by: { Self.literalCount($0.path) < Self.literalCount($1.path) }) else {
            return try await next(request, context)
        }
        var response = Response.problem(.methodNotAllowed)
        response.headers[.allow] = known.allow
        return response
    }

    /// Whether `segments` fill the components of `path` one for one (our routes use literal
    /// segments and `{captures}` only).
    static func matches(_ path: RouterPath, _ segments: [Substring]) -> Bool {
        guard path.components.count == segments.count else { return false }
        return zip(path.components, segments).allSatisfy { component, segment in component ~= segment }
    }

    static func literalCount(_ path: RouterPath) -> Int {
        path.components.filter { component in component == component.description }.count
    }
}
