import Foundation
import Hummingbird
import SCACore
import SCAEngine

// The risk page: the fraud rates against the RTS reference rates, the exemptions granted per
// week, the TRA stops and resumptions, and the quarterly report (as a page and as CSV).
extension OperatorConsole {
    static let riskPage = "/console/risk"

    /// `GET /console/risk?quarter=2026Q1` (the current quarter when absent).
    func risk(_ request: Request) async throws -> Response {
        let (state, actor): (PageState, ConsoleOperator)
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let words = words(request, here: request.uri.description)
        guard let quarter = requestedQuarter(request) else {
            return message("console.risk.badQuarter.title", PageText("console.risk.badQuarter.message"), words: words, status: .badRequest)
        }
        let overview: ConsoleRiskOverview
        do {
            overview = try await console.riskOverview(quarter, by: actor)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        var values = nav(state, actor)
        values.merge(riskValues(overview, quarter: quarter, words: words)) { $1 }
        return renderer.page(
            "console-risk", title: words.text("console.risk.title"), values, words: words, frame: frame(words))
    }

    /// `GET /console/risk/report.csv?quarter=2026Q1`: what `GET /admin/v1/risk/report.csv` answers.
    func riskCSV(_ request: Request) async throws -> Response {
        let actor: ConsoleOperator
        switch try await visit(request) {
        case .signedIn(_, let signedIn): actor = signedIn
        case .elsewhere(let response): return response
        }
        let words = words(request, here: Self.riskPage)
        guard let quarter = requestedQuarter(request) else {
            return message("console.risk.badQuarter.title", PageText("console.risk.badQuarter.message"), words: words, status: .badRequest)
        }
        do {
            return Response.csv(try await console.riskReport(quarter, by: actor).csv, filename: "risk-report-\(quarter).csv")
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
    }

    /// The quarter the request names, the current one when it names none; nil for one that is
    /// not a quarter.
    private func requestedQuarter(_ request: Request) -> Quarter? {
        guard let text = request.uri.queryParameters.get("quarter"), !text.isEmpty else {
            return Quarter.containing(runtime.now())
        }
        return Quarter(text)
    }

    private func riskValues(_ overview: ConsoleRiskOverview, quarter: Quarter, words: PageWords) -> [String: Any] {
        let report = overview.report
        // The quarter form offers the last eight quarters, and the one shown if older.
        var choices: [Quarter] = [Quarter.containing(runtime.now())]
        while choices.count < 8 { choices.append(choices[choices.count - 1].previous) }
        if !choices.contains(quarter) { choices.append(quarter) }
        var values: [String: Any] = [
            "quarter": quarter.description,
            "quarters": choices.map { choice -> [String: Any] in
                var option: [String: Any] = ["value": choice.description]
                if choice == quarter { option["selected"] = true }
                return option
            },
            "csvHref": "\(Self.riskPage)/report.csv?quarter=\(quarter)",
            "ratesLead": words.text("console.risk.rates.lead", ["first": overview.reports[0].quarter, "last": report.quarter]),
            "exemptionsLead": words.text("console.risk.exemptions.lead", ["quarter": report.quarter]),
            "reportHeading": words.text("console.risk.report.heading", ["quarter": report.quarter]),
        ]
        values["charts"] = PaymentType.allCases.map { type -> [String: Any] in
            var chart = ConsoleCharts.fraudRates(type, reports: overview.reports, words: words)
            let name = words.text("console.risk.type.\(type.rawValue)")
            chart["name"] = name
            chart["title"] = words.text("console.risk.rates.chartTitle", ["type": name])
            chart["rows"] = overview.reports.map { report -> [String: Any] in
                let rate = report.types.first { $0.type == type }
                return [
                    "quarter": report.quarter, "volume": rate?.volume ?? "0.00", "fraud": rate?.fraud ?? "0.00",
                    "rate": words.text("console.risk.rate", ["rate": rate?.ratePercent ?? "0.000000"]),
                    "bands": (rate?.bands ?? []).map { bandState($0, words: words) },
                ]
            }
            chart["bandHeadings"] = (report.types.first { $0.type == type }?.bands ?? []).map {
                words.text("console.risk.band", ["amount": $0.maxAmount, "rate": $0.referencePercent])
            }
            return chart
        }

        var exemptions = ConsoleCharts.exemptions(overview.activity, words: words)
        exemptions["legend"] = RiskService.paymentExemptions.map {
            ["exemption": $0.rawValue, "name": words.text("console.risk.exemption.\($0.rawValue)")]
        }
        exemptions["rows"] = overview.activity.weeks.map { week -> [String: Any] in
            [
                "start": week.start, "counts": RiskService.paymentExemptions.map { String(week.granted[$0.rawValue] ?? 0) },
                "total": String(week.granted.values.reduce(0, +)),
            ]
        }
        values["exemptions"] = exemptions

        values["traChanges"] = overview.activity.traChanges.map { change -> [String: Any] in
            let quarters = change.quarters.joined(separator: ", ")
            return [
                "time": words.dateTime(change.time), "band": bandName(change.band, words: words),
                "change": words.text(change.stopped ? "console.risk.tra.stopped" : "console.risk.tra.resumed"),
                "changeClass": change.stopped ? "bad" : "ok",
                "reason": words.text(change.stopped ? "console.risk.tra.stoppedReason" : "console.risk.tra.resumedReason", ["quarters": quarters]),
                "entry": String(change.sequence),
                "entryHref": "\(Self.auditPage)?event=\(change.stopped ? "risk.tra_suspended" : "risk.tra_resumed")",
            ]
        }
        values["hasTRAChanges"] = !overview.activity.traChanges.isEmpty

        values["reportTypes"] = report.types.map { rate -> [String: Any] in
            [
                "name": words.text("console.risk.type.\(rate.type.rawValue)"), "volume": rate.volume, "fraud": rate.fraud,
                "rate": words.text("console.risk.rate", ["rate": rate.ratePercent]),
                "bands": rate.bands.map { band -> [String: Any] in
                    var row = bandState(band, words: words)
                    row["band"] = words.text("console.risk.band", ["amount": band.maxAmount, "rate": band.referencePercent])
                    return row
                },
            ]
        }
        values["reportExemptions"] = report.exemptions.map { status -> [String: Any] in
            [
                "name": words.text("console.risk.exemption.\(status.exemption.rawValue)"),
                "state": words.text(status.applied ? "console.risk.applied" : "console.risk.notApplied"),
                "stateClass": status.applied ? "ok" : "off", "reason": status.reason,
            ]
        }
        return values
    }

    /// A band's state in a quarter, as a badge.
    private func bandState(_ band: RiskReport.Band, words: PageWords) -> [String: Any] {
        if band.suspended { return ["state": words.text("console.risk.state.stopped"), "stateClass": "bad"] }
        if band.exceeded { return ["state": words.text("console.risk.state.above"), "stateClass": "warn"] }
        return ["state": words.text("console.risk.state.within"), "stateClass": "ok"]
    }

    /// `credit_transfer:500` as the reader's words: "Credit transfers up to 500 EUR".
    private func bandName(_ band: String, words: PageWords) -> String {
        let parts = band.split(separator: ":")
        guard parts.count == 2, let type = PaymentType(rawValue: String(parts[0])) else { return band }
        return words.text("console.risk.bandOfType", ["type": words.text("console.risk.type.\(type.rawValue)"), "amount": String(parts[1])])
    }
}
