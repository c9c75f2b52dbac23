import Foundation
import GRDB
import HTTPTypes
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Testing

/// The console's risk and audit pages through the real routes, against the real store: what
/// they show is what the engine's report, the store and `sca-server audit` say; an operator
/// without the permission sees no link and is refused; bad input is refused and changes nothing.
@Suite("Operator console: risk and audit")
struct ConsoleRiskTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        ConsoleTests.configure(&configuration)
        configuration.roles["fraud"] = ["risk:read", "audit:read", "users:read"]
        configuration.risk.exemptLowValue = true
        configuration.risk.exemptTRA = true
    }

    static let analyst = (email: "fiona@bank.example", phone: "+41790000301")

    /// The fraud analyst, signed in to the console.
    static func analystBrowser(_ api: APIClient) async throws -> PageBrowser {
        if try await api.services.engine.store.user(email: analyst.email) == nil {
            _ = try await ConsoleTests.makeOperator(api, email: analyst.email, phone: analyst.phone, roles: ["fraud"])
        }
        let browser = PageBrowser(api: api)
        try await ConsoleTests.signIn(browser, email: analyst.email, phone: analyst.phone)
        return browser
    }

    /// Two low-value payments go without SCA, one is authenticated, and a fraud report follows.
    static func seedPayments(_ api: APIClient) async throws -> ExemptionTests.SignedIn {
        let user = try await api.signIn("payer@example.com")
        for _ in 0..<2 {
            #expect(try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("5.00"))).exemption == .lowValue)
        }
        let paid = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("900.00")))
        _ = try await api.completeSCA(paid.challengeId, user)
        let report = FraudReportRequest(amount: "0.45", currency: "EUR", type: .creditTransfer)
        #expect(try await api.post("/admin/v1/fraud-reports", report, admin: true).status == 201)
        return user
    }

    static func html(_ response: APIResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("the risk page draws the report's rates and the exemptions granted; its CSV is the report, quoted, with a header")
    func riskPageAndCSV() async throws {
        // Without TRA, the small payments go as low value and only the authenticated one is volume.
        try await TestServer {
            Self.configure(&$0)
            $0.risk.exemptTRA = false
        }.run { api in
            _ = try await Self.seedPayments(api)
            let quarter = Quarter.containing(api.clock.now())
            let report = try await api.services.engine.risk.report(quarter: quarter)
            let browser = try await Self.analystBrowser(api)

            let page = try await browser.get("/console/risk")
            #expect(page.status == 200)
            let text = Self.html(page)
            #expect(text.contains("href=\"/console/risk\"") && text.contains("href=\"/console/audit\""))
            for rate in report.types {
                #expect(
                    text.contains("data-quarter=\"\(quarter)\" data-rate=\"\(rate.ratePercent)\""),
                    "\(rate.type): \(rate.ratePercent)")
            }
            let transfers = try #require(report.types.first { $0.type == .creditTransfer })
            #expect(transfers.ratePercent == "0.050000")
            #expect(text.contains(">0.050000 %</text>"))
            // Every band's reference line, at the annex's rates.
            for reference in ["0.015", "0.01", "0.005", "0.13", "0.06"] { #expect(text.contains("data-reference=\"\(reference)\"")) }
            #expect(text.contains("data-exemption=\"low_value\" data-count=\"2\""))
            #expect(text.contains("role=\"img\""))

            // The CSV: its header, a row per band and per exemption, what the report says.
            let csv = try await browser.get("/console/risk/report.csv?quarter=\(quarter)")
            #expect(csv.status == 200)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"risk-report-\(quarter).csv\"")
            let lines = Self.html(csv).components(separatedBy: "\r\n")
            #expect(lines.first == "quarter,payment_type,volume_eur,fraud_eur,rate_percent,band_up_to_eur,reference_percent,state,exemption,reason")
            #expect(lines.contains("\(quarter),credit_transfer,900.00,0.45,0.050000,100.00,0.015,above_reference,,"))
            #expect(lines.contains("\(quarter),card,0.00,0.00,0.000000,500.00,0.01,within_reference,,"))
            // A reason with commas is one quoted field.
            let lowValue = try #require(report.exemptions.first { $0.exemption == .lowValue })
            #expect(lowValue.reason.contains(","))
            #expect(lines.contains("\(quarter),,,,,,,applied,low_value,\"\(lowValue.reason)\""))
            #expect(lines.count == 1 + 6 + Exemption.allCases.count + 1, "a row each, and the last line ends")
            // The admin API answers the same bytes.
            let admin = try await api.send(.get, "/admin/v1/risk/report.csv?quarter=\(quarter)", admin: true)
            #expect(admin.body == csv.body)

            // A quarter that is not one: refused on the page, the download and the API.
            #expect(try await browser.get("/console/risk?quarter=2026Q5").status == 400)
            #expect(try await browser.get("/console/risk/report.csv?quarter=soon").status == 400)
            #expect(try await api.send(.get, "/admin/v1/risk/activity?quarter=2026Q5", admin: true).problem?.code == .requestInvalid)
        }
    }

    @Test("TRA stopped after two quarters above the reference, and resumed, is listed with its reason and audit entry")
    func traChangesListed() async throws {
        try await TestServer(Self.configure).run { api in
            // The clock starts in 2027Q1; each quarter has 1.00 EUR of fraud on 900.00 EUR.
            var user = try await api.signIn("quarters@example.com")
            for _ in 1...2 {
                let paid = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("900.00")))
                _ = try await api.completeSCA(paid.challengeId, user)
                let report = FraudReportRequest(amount: "1.00", currency: "EUR", type: .creditTransfer)
                #expect(try await api.post("/admin/v1/fraud-reports", report, admin: true).status == 201)
                api.clock.advance(by: 91 * 86_400)
                user = try await api.signIn(user)
            }
            let known = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("100.00")))
            _ = try await api.completeSCA(known.challengeId, user)

            let activity = try await api.send(.get, "/admin/v1/risk/activity", admin: true).decode(RiskActivity.self)
            #expect(activity.traChanges.count == 3)
            #expect(activity.traChanges.allSatisfy { $0.stopped && $0.quarters == ["2027Q1", "2027Q2"] })
            #expect(Set(activity.traChanges.map(\.band)) == ["credit_transfer:100", "credit_transfer:250", "credit_transfer:500"])

            let page = Self.html(try await Self.analystBrowser(api).get("/console/risk"))
            #expect(page.contains("Credit transfers up to 500 EUR"))
            #expect(page.contains("Fraud rate above the reference in 2027Q1, 2027Q2"))
            for change in activity.traChanges { #expect(page.contains(">\(change.sequence)</a>")) }
            // The quarter before, stopped at its end: the report's bands say so.
            let stopped = Self.html(try await Self.analystBrowser(api).get("/console/risk?quarter=2027Q2"))
            #expect(stopped.contains("<span class=\"badge bad\">TRA stopped</span>"))
        }
    }

    @Test("a role without risk:read or audit:read sees no link, and every page, download and export is refused, recorded")
    func refusedWithoutPermission() async throws {
        try await TestServer(Self.configure).run { api in
            let operatorID = try await ConsoleTests.makeOperator(api, email: "sam@bank.example", phone: "+41790000302", roles: ["support"])
            let browser = PageBrowser(api: api)
            try await ConsoleTests.signIn(browser, email: "sam@bank.example", phone: "+41790000302")
            let users = Self.html(try await browser.get("/console/users"))
            #expect(!users.contains("/console/risk") && !users.contains("/console/audit"))
            for path in ["/console/risk", "/console/risk/report.csv", "/console/audit", "/console/audit/export", "/console/audit/verify"] {
                let refused = try await browser.get(path)
                #expect(refused.status == 403, "\(path)")
                #expect(Self.html(refused).contains("Your roles do not allow this."), "\(path)")
            }
            let denied = try await api.services.engine.store.auditEntries(userID: operatorID, before: nil, limit: 20)
                .filter { $0.draft.event == "admin.access_denied" }.compactMap { $0.draft.details["scope"] }
            #expect(Set(denied) == ["risk:read", "audit:read"])
        }
    }

    @Test("the audit view filters by user, event and days, pages newest first, and refuses a bad filter")
    func auditFilterAndPaging() async throws {
        try await TestServer(Self.configure).run { api in
            let customer = try await api.createUser("carla@example.com", phone: "+41790000303")
            try await ConsoleTests.lock(api, email: "carla@example.com")
            // More than a page of entries.
            for index in 0..<40 { _ = try await api.createUser("filler\(index)@example.com") }
            let browser = try await Self.analystBrowser(api)
            let all = try await api.services.engine.store.auditEntries(after: 0, limit: 10_000)

            let rejected = all.filter { $0.draft.userID == customer && $0.draft.event == "proof.rejected" }
            #expect(rejected.count == 5)
            let filtered = Self.html(try await browser.get("/console/audit?user=\(customer)&event=proof.rejected"))
            let shown = Self.sequences(in: filtered)
            #expect(shown == Array(rejected.map(\.sequence).reversed()))
            #expect(filtered.contains("5 entries, newest first"))

            // A day range: today has them all, tomorrow none.
            let day = Self.day(api.clock.now())
            let today = Self.html(try await browser.get("/console/audit?user=\(customer)&from=\(day)&to=\(day)"))
            #expect(Self.sequences(in: today) == Array(all.filter { $0.draft.userID == customer }.map(\.sequence).reversed()))
            let tomorrow = Self.day(api.clock.now().addingTimeInterval(86_400))
            #expect(Self.html(try await browser.get("/console/audit?from=\(tomorrow)")).contains("No entry matches."))

            // Pages of fifty, newest first: the next page goes on below the last one shown.
            #expect(all.count > 50)
            let first = Self.html(try await browser.get("/console/audit"))
            #expect(Self.sequences(in: first) == Array(all.map(\.sequence).reversed().prefix(50)))
            let older = try #require(Self.olderLink(in: first))
            let second = Self.html(try await browser.get(older))
            #expect(Self.sequences(in: second) == Array(all.map(\.sequence).reversed().dropFirst(50).prefix(50)))

            // A bad filter is refused, with nothing listed.
            for bad in ["user=bob", "event=proof.forged", "from=2027-13-01", "from=2027-02-02&to=2027-02-01", "before=-3", "from=tomorrow"] {
                let refused = try await browser.get("/console/audit?\(bad)")
                #expect(refused.status == 400, "\(bad)")
                #expect(Self.sequences(in: Self.html(refused)).isEmpty)
            }
            for bad in ["userId=bob", "event=nope", "from=yesterday", "from=2027-01-02T00:00:00Z&to=2027-01-01T00:00:00Z"] {
                #expect(try await api.send(.get, "/admin/v1/audit?\(bad)", admin: true).problem?.code == .requestInvalid, "\(bad)")
                #expect(try await api.send(.get, "/admin/v1/audit/export?\(bad)", admin: true).problem?.code == .requestInvalid, "\(bad)")
            }
            // The admin API pages the same filter, oldest first.
            let page = try await api.send(.get, "/admin/v1/audit?userId=\(customer)&event=proof.rejected", admin: true)
            let entries = try #require(page.json["entries"] as? [[String: Any]])
            #expect(entries.compactMap { ($0["sequence"] as? Int).map(Int64.init) } == rejected.map(\.sequence))
        }
    }

    @Test("the export is the filtered range in the lines of sca-server audit export, and the API's is the same")
    func auditExport() async throws {
        try await TestServer(Self.configure).run { api in
            let customer = try await api.createUser("dora@example.com", phone: "+41790000304")
            try await ConsoleTests.lock(api, email: "dora@example.com")
            let browser = try await Self.analystBrowser(api)
            let export = try await browser.get("/console/audit/export?user=\(customer)")
            #expect(export.status == 200)
            #expect(export.headers[.contentType] == "application/jsonl")
            #expect(export.headers[.contentDisposition] == "attachment; filename=\"audit-export.jsonl\"")
            let expected = try await api.services.engine.store.auditEntries(after: 0, limit: 10_000)
                .filter { $0.draft.userID == customer }
                .flatMap { JCS.canonicalize($0.exportJSON) + [UInt8(ascii: "\n")] }
            #expect(!expected.isEmpty)
            #expect(Array(export.body) == expected)
            let admin = try await api.send(.get, "/admin/v1/audit/export?userId=\(customer)", admin: true)
            #expect(admin.body == export.body)
            // Every line is an entry a verifier reads back: the hash is the entry's.
            let first = try #require(String(decoding: export.body, as: UTF8.self).split(separator: "\n").first)
            #expect(first.hasPrefix("{\"actor\":") && first.contains("\"hash\":\"") && first.contains("\"prevHash\":\""))
        }
    }

    @Test("the chain check matches the last checkpoint, then shows a tampered entry, and a cut chain, as broken")
    func chainStatus() async throws {
        let checkpointFile = FileManager.default.temporaryDirectory.appendingPathComponent("console-checkpoint-\(UUID().uuidString).jws")
        defer { try? FileManager.default.removeItem(at: checkpointFile) }
        try await TestServer {
            Self.configure(&$0)
            $0.auditCheckpointFile = checkpointFile.path
        }.run { api in
            _ = try await api.createUser("erin@example.com")
            let browser = try await Self.analystBrowser(api)
            let (checkpoint, jws) = try await api.services.engine.auditCheckpoints.take()
            try Data((jws + "\n").utf8).write(to: checkpointFile)

            let intact = Self.html(try await browser.get("/console/audit/verify"))
            #expect(intact.contains("data-chain=\"ok\"") && intact.contains("data-checkpoint=\"ok\""))
            #expect(intact.contains("Matches: entry \(checkpoint.sequence)"))
            let status = try await api.send(.get, "/admin/v1/audit/verify", admin: true).decode(AuditChainStatus.self)
            #expect(status.isIntact && status.checkpoint?.sequence == checkpoint.sequence)

            // Someone with the file edits an entry: the chain breaks there.
            let original = try #require(try await api.services.engine.store.auditEntries(after: 1, limit: 1).first).draft.outcome
            let tamperer = try DatabaseQueue(path: api.services.configuration.databasePath)
            try await tamperer.write { db in
                try db.execute(sql: "DROP TRIGGER audit_entries_no_update; DROP TRIGGER audit_entries_no_delete")
                try db.execute(sql: "UPDATE audit_entries SET outcome = 'forged' WHERE sequence = 2")
            }
            let edited = Self.html(try await browser.get("/console/audit/verify"))
            #expect(edited.contains("data-chain=\"bad\""))
            #expect(edited.contains("Broken at entry 2 (1 intact before it)"))
            #expect(edited.contains("entry 2: content does not match its hash (edited)"))

            // Put back, then the newest entries cut: what is left links up, the checkpoint shows the cut.
            try await tamperer.write { db in
                try db.execute(sql: "UPDATE audit_entries SET outcome = ? WHERE sequence = 2", arguments: [original])
                try db.execute(sql: "DELETE FROM audit_entries WHERE sequence >= ?", arguments: [checkpoint.sequence - 1])
            }
            try tamperer.close()
            let cut = try await api.send(.get, "/admin/v1/audit/verify", admin: true).decode(AuditChainStatus.self)
            #expect(cut.broken == nil)
            #expect(cut.checkpoint?.problem?.contains("chain shorter than checkpoint") == true)
            #expect(!cut.isIntact)
        }
    }

    /// The sequence numbers of an audit page's rows, in order.
    static func sequences(in html: String) -> [Int64] {
        html.matches(of: #/<tr><td class="num">(\d+)</td>/#).compactMap { Int64($0.output.1) }
    }

    static func olderLink(in html: String) -> String? {
        html.firstMatch(of: #/<a href="([^"]+)">Older entries</a>/#).map { String($0.output.1).replacingOccurrences(of: "&amp;", with: "&") }
    }

    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
