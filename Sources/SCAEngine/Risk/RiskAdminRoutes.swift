import Foundation
import Hummingbird
import SCACore

/// `/admin/v1/fraud-reports` and `/admin/v1/risk/report`: fraud reporting and the fraud rates
/// (RTS art. 19–21), behind ``AdminAuthMiddleware`` with the `risk` scopes.
struct RiskAdminRoutes<Context: RequestContext> {
    let risk: RiskService
    let access: AdminAccess
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("admin/v1").add(middleware: AdminAuthMiddleware<Context>(access: access))
        group.requiring(.riskWrite).post("fraud-reports") { request, _ in
            let body = try await request.decodeJSON(FraudReportRequest.self, limit: maxBodySize)
            return try Response.json(try await risk.reportFraud(body), status: .created)
        }
        group.requiring(.riskRead).get("risk/report") { request, _ in
            let quarter: Quarter
            if let text = request.uri.queryParameters.get("quarter") {
                guard let parsed = Quarter(text) else { throw Problem.invalidRequest("quarter must look like 2026Q4") }
                quarter = parsed
            } else {
                quarter = Quarter.containing(risk.runtime.now())
            }
            return try Response.json(try await risk.report(quarter: quarter))
        }
    }
}
