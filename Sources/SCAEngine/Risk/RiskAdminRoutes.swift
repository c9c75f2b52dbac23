import Foundation
import Hummingbird
import SCACore

/// `/admin/v1/fraud-reports` and `/admin/v1/risk/…`: fraud reporting, the fraud rates (RTS
/// art. 19–21) and what the risk engine did, behind ``AdminAuthMiddleware`` with the `risk`
/// scopes.
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
            try Response.json(try await risk.report(quarter: try quarter(request)))
        }
        // The same report for a spreadsheet, as the console downloads it.
        group.requiring(.riskRead).get("risk/report.csv") { request, _ in
            let quarter = try quarter(request)
            return Response.csv(try await risk.report(quarter: quarter).csv, filename: "risk-report-\(quarter).csv")
        }
        group.requiring(.riskRead).get("risk/activity") { request, _ in
            try Response.json(try await risk.activity(quarter: try quarter(request)))
        }
    }

    /// `quarter` (`2026Q4`), the current one when absent.
    private func quarter(_ request: Request) throws -> Quarter {
        guard let text = request.uri.queryParameters.get("quarter") else { return Quarter.containing(risk.runtime.now()) }
        guard let parsed = Quarter(text) else { throw Problem.invalidRequest("quarter must look like 2026Q4") }
        return parsed
    }
}
