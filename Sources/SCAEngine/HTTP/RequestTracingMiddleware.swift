import HTTPTypes
import Hummingbird
import SCAStorage

/// One server span per request, the parent of everything the request does (store
/// transactions, outbound calls, password hashes), when the server traces (`tracing.enabled`).
///
/// Hummingbird's own `TracingMiddleware` records on the process-wide tracer, with the raw path,
/// the query and the peer's address; this one records on the server's own tracer, and only:
/// the method, the matched route template (`POST /v1/challenges/{id}/proofs`, which also names
/// the span), the status, Hummingbird's request id, and the id a few routes carry in their path
/// (a challenge's, an operation's, a device's). Never a header, a query, a body or an address.
///
/// A W3C `traceparent` (and `tracestate`) on the request makes the span a child of the caller's.
package struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracing: TraceRecorder

    package init(tracing: TraceRecorder) {
        self.tracing = tracing
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let headers = request.headers
        let parent = tracing.extractParent { name in HTTPField.Name(name).flatMap { headers[$0] } }
        let method = request.method.rawValue
        return try await tracing.span(method, ofKind: .server, parent: parent) { span in
            span.set("http.request.method", method)
            span.set("sca.request_id", context.id)
            do {
                let response = try await next(request, context)
                describe(span, method: method, context: context, status: Int(response.status.code))
                return response
            } catch {
                // Thrown past the problem middleware: the status the error renders as.
                describe(span, method: method, context: context, status: Int(((error as? any HTTPResponseError)?.status ?? .internalServerError).code))
                throw error
            }
        }
    }

    /// Names the span after its route, once the router has matched one (`endpointPath` is
    /// shared by reference, so it is filled in by now), and records the outcome.
    private func describe(_ span: RecordedSpan, method: String, context: Context, status: Int) {
        if let route = context.endpointPath {
            span.rename("\(method) \(route)")
            span.set("http.route", route)
            if let id = tracedPathIDs.first(where: { route.hasPrefix($0.routePrefix) }) {
                span.set(id.attribute, context.parameters.get("id"))
            }
        }
        span.set("http.response.status_code", status)
        // A client's mistake (4xx) is an outcome the server answered well; only 5xx fails.
        if status >= 500 { span.fail(reason: String(status)) }
    }
}

/// The routes whose `{id}` a request's span records, and the attribute it is recorded as. Only
/// ids that are not secrets: a consent page's or a sign-in's ids stay out.
private let tracedPathIDs: [(routePrefix: String, attribute: String)] = [
    ("/v1/challenges/{id}", "sca.challenge_id"),
    ("/v1/operations/{id}", "sca.operation_id"),
    ("/v1/devices/{id}", "sca.device_id"),
    ("/admin/v1/users/{id}", "sca.user_id"),
]
