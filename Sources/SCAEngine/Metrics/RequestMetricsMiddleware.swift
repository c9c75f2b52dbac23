import Hummingbird

/// Counts every request by method, matched route template and status.
///
/// The route is Hummingbird's `endpointPath` (`/v1/challenges/{id}/proofs`), never the raw
/// path, whose ids would give each challenge a series of its own. Unmatched paths all count
/// as `NotFound`.
package struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    package init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            // `endpointPath` is shared by reference: the router has filled it in by now.
            metrics.recordRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "NotFound", status: Int(response.status.code))
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.recordRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "NotFound", status: Int(status.code))
            throw error
        }
    }
}
