import HTTPTypes
import Hummingbird

/// Registers routes on a router while noting each path's methods, so that afterwards every
/// other method on a known path answers `405 request.method_not_allowed` with an `Allow`
/// header (RFC 9110 §15.5.6) instead of Hummingbird's `404`.
final class RouteRecorder<Context: RequestContext>: RouterMethods {
    /// The methods a `405` may be given for: the ones a client can mean on a resource.
    static var answeredMethods: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options, .trace] }

    private let router: Router<Context>
    /// Paths in registration order, each with its methods.
    private var paths: [(path: RouterPath, methods: [HTTPRequest.Method])] = []

    init(_ router: Router<Context>) {
        self.router = router
    }

    @discardableResult func on<Responder: HTTPResponder>(
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

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// Answers `405` with `Allow` for every method of ``answeredMethods`` a recorded path lacks.
    func answerOtherMethods() {
        for (path, methods) in paths {
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            for method in Self.answeredMethods where !methods.contains(method) {
                router.on(path, method: method) { _, _ in
                    var response = Response.problem(.methodNotAllowed)
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
