import Foundation
import Hummingbird
import SCACore
import SCAServer
import Testing

/// The console's risk and audit pages in a real headless Chromium: payments and fraud reports
/// over three quarters (through the API), then a fraud analyst signs in with a passkey and reads
/// the charts; the rates the browser draws are the engine's report's, quarter by quarter. Every
/// page at 1280 and 420 px fits its window and passes axe-core; the screenshots are
/// docs/images/console-risk-*.png and console-audit-*.png.
@Suite(
    "The console's risk and audit pages in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct ConsoleRiskBrowserTests {
    @Test("a fraud analyst reads the fraud rates, the exemptions and TRA stopped, then the audit trail and its chain check")
    func analystDay() async throws {
        let checkpointFile = FileManager.default.temporaryDirectory.appendingPathComponent("console-browser-\(UUID().uuidString).jws")
        defer { try? FileManager.default.removeItem(at: checkpointFile) }
        try await TestServer.runForBrowser(screenshots: ConsoleBrowserTests.shots) {
            ConsoleRiskTests.configure(&$0)
            $0.auditCheckpointFile = checkpointFile.path
        } _: { api, base in
            try await Self.scenario(api, base: base, checkpointFile: checkpointFile)
        }
    }

    /// The bars of the fraud-rate charts: the type, the quarter, the rate, and its label's text.
    static let barsScript = """
        var bars = [];
        document.querySelectorAll("svg[data-type] rect[data-rate]").forEach(function (bar) {
          var svg = bar.closest("svg");
          var label = svg.querySelector("text.value[data-quarter='" + bar.getAttribute("data-quarter") + "']");
          bars.push([svg.getAttribute("data-type"), bar.getAttribute("data-quarter"), bar.getAttribute("data-rate"),
            label ? label.textContent : ""]);
        });
        return bars;
        """

    /// The exemptions chart's segments: the exemption and its count, summed over the weeks.
    static let segmentsScript = """
        var sums = {};
        document.querySelectorAll("rect[data-exemption]").forEach(function (segment) {
          var name = segment.getAttribute("data-exemption");
          sums[name] = (sums[name] || 0) + parseInt(segment.getAttribute("data-count"), 10);
        });
        return sums;
        """

    static func scenario(_ api: APIClient, base: String, checkpointFile: URL) async throws {
        // 2027Q1 and 2027Q2: 900.00 EUR authenticated and 1.00 EUR of fraud each, so TRA stops.
        var payer = try await api.signIn("payer@example.com")
        for _ in 1...2 {
            let paid = try api.decodeChallenge(try await api.pay(payer, ExemptionTests.eur("900.00")))
            _ = try await api.completeSCA(paid.challengeId, payer)
            let report = FraudReportRequest(amount: "1.00", currency: "EUR", type: .creditTransfer)
            #expect(try await api.post("/admin/v1/fraud-reports", report, admin: true).status == 201)
            api.clock.advance(by: 91 * 86_400)
            payer = try await api.signIn(payer)
        }
        // 2027Q3: low-value payments, card and transfer volume, and a smaller fraud.
        for _ in 0..<3 {
            #expect(try api.decodeChallenge(try await api.pay(payer, ExemptionTests.eur("8.00"))).exemption == .lowValue)
        }
        let transfer = try api.decodeChallenge(try await api.pay(payer, ExemptionTests.eur("950.00")))
        _ = try await api.completeSCA(transfer.challengeId, payer)
        api.clock.advance(by: 8 * 86_400)
        payer = try await api.signIn(payer)
        let card = try api.decodeChallenge(try await api.pay(payer, ExemptionTests.eur("640.00"), type: .card))
        _ = try await api.completeSCA(card.challengeId, payer)
        for _ in 0..<2 {
            #expect(try api.decodeChallenge(try await api.pay(payer, ExemptionTests.eur("8.00"))).exemption == .lowValue)
        }
        #expect(try await api.post("/admin/v1/fraud-reports", FraudReportRequest(amount: "0.25", currency: "EUR", type: .creditTransfer), admin: true).status == 201)
        #expect(try await api.post("/admin/v1/fraud-reports", FraudReportRequest(amount: "0.64", currency: "EUR", type: .card), admin: true).status == 201)
        // A customer locked out, for the audit trail.
        _ = try await api.createUser("carla.meier@example.com", phone: "+41790000402")
        try await ConsoleTests.lock(api, email: "carla.meier@example.com")

        let analyst = ConsoleRiskTests.analyst
        _ = try await ConsoleTests.makeOperator(api, email: analyst.email, phone: analyst.phone, roles: ["fraud"])
        let settingsToken = try await PasskeyBrowserTests.settingsChangeToken(api, email: analyst.email, phone: analyst.phone)

        let quarter = Quarter.containing(api.clock.now())
        var quarters = [quarter]
        while quarters.count < 4 { quarters.insert(quarters[0].previous, at: 0) }
        var expected: [[String]] = []
        for type in PaymentType.allCases {
            for period in quarters {
                let rate = try #require(try await api.services.engine.risk.report(quarter: period).types.first { $0.type == type })
                expected.append([type.rawValue, period.description, rate.ratePercent, "\(rate.ratePercent) %"])
            }
        }

        let driver = try await WebDriver()
        func look(_ name: String) async throws { try await ConsoleBrowserTests.look(driver, name) }
        do {
            try await ConsoleBrowserTests.signInWithPasskey(driver, base: base, settingsToken: settingsToken)

            // The risk page, from the bar: the rates drawn are the report's, quarter by quarter.
            try await driver.click("nav a[href='/console/risk']")
            _ = try await driver.waitForURL(prefix: "\(base)/console/risk")
            let bars = try #require(try await driver.execute(Self.barsScript) as? [[String]])
            #expect(bars == expected)
            let drawn = try #require(try await driver.execute(Self.segmentsScript) as? [String: Int])
            let activity = try await api.send(.get, "/admin/v1/risk/activity", admin: true).decode(RiskActivity.self)
            var granted: [String: Int] = [:]
            for week in activity.weeks { granted.merge(week.granted.filter { $0.value > 0 }) { $0 + $1 } }
            #expect(drawn == granted)
            #expect(drawn == ["low_value": 5])
            let text = try await driver.text()
            #expect(text.contains("Fraud rate above the reference in 2027Q1, 2027Q2"))
            try await look("risk")

            // The audit trail, filtered to the refused proofs, then the chain check.
            try await driver.click("nav a[href='/console/audit']")
            _ = try await driver.waitForURL(prefix: "\(base)/console/audit")
            try await driver.open("\(base)/console/audit?event=proof.rejected")
            #expect(try await driver.text().contains("5 entries, newest first"))
            try await look("audit")
            let (checkpoint, jws) = try await api.services.engine.auditCheckpoints.take()
            try Data((jws + "\n").utf8).write(to: checkpointFile)
            try await driver.click("a[href='/console/audit/verify']")
            _ = try await driver.waitForURL(prefix: "\(base)/console/audit/verify")
            #expect(try await driver.text().contains("Matches: entry \(checkpoint.sequence)"))
            try await look("audit-verify")
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()
    }
}
