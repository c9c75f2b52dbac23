import Hummingbird
import SCACore

/// `GET /metrics`: the server's counters in the Prometheus text format (version 0.0.4); and
/// `GET /admin/v1/activity` (`risk:read`), the last hour of the live overview's counters.
///
/// `/metrics` is unauthenticated, like the health probes: it carries counts by route,
/// operation, method and outcome, never an id. Deployments that expose the server publicly
/// should keep `/metrics` to their internal network at the proxy.
struct MetricsRoutes<Context: RequestContext> {
    let metrics: ServerMetrics
    let access: AdminAccess

    func register(on router: some RouterMethods<Context>) {
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
        let admin = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.riskRead).get("activity") { _, _ in
            let hour = metrics.history.lastHour()
            return try Response.json(
                ActivityResponse(
                    firstMinute: hour.firstMinute,
                    series: Dictionary(uniqueKeysWithValues: hour.counts.map { ($0.key.rawValue, $0.value) })))
        }
    }
}
