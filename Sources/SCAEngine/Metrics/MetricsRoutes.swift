import Hummingbird

/// `GET /metrics`: the server's counters in the Prometheus text format (version 0.0.4).
///
/// Unauthenticated, like the health probes: it carries counts by route, operation, method and
/// outcome, never an id. Deployments that expose the server publicly should keep `/metrics`
/// to their internal network at the proxy.
struct MetricsRoutes<Context: RequestContext> {
    let metrics: ServerMetrics

    func register(on router: some RouterMethods<Context>) {
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
    }
}
