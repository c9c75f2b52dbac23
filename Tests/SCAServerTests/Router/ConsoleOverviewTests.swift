import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Testing

/// The console's live overview through the real routes: the sparklines draw the same numbers
/// `/metrics` exports, the hour moves on with the clock, and the admin API answers the same.
@Suite("Operator console: live overview")
struct ConsoleOverviewTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        ConsoleTests.configure(&configuration)
        configuration.roles["fraud"] = ["risk:read", "users:read"]
        // The third code to one phone within ten minutes is refused.
        configuration.rateLimits.sendsPerDestination = [RateWindow(count: 2, seconds: 600)]
    }

    /// The sum of the `/metrics` series `name` over every series whose labels contain `labels`.
    static func metric(_ text: String, _ name: String, _ labels: String = "") -> Int {
        text.split(separator: "\n").filter { $0.hasPrefix(name + "{") && (labels.isEmpty || $0.contains(labels)) }
            .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
    }

    /// The figure a sparkline draws for `series` (its `data-total`) and its per-minute counts.
    static func drawn(_ html: String, _ series: String) throws -> (total: Int, counts: [Int]) {
        let pattern = try Regex(#"data-series="\#(series)" data-total="(\d+)" data-counts="([0-9,]+)""#)
        let match = try #require(html.firstMatch(of: pattern))
        let totalText = try #require(match.output[1].substring)
        let countsText = try #require(match.output[2].substring)
        return (try #require(Int(totalText)), countsText.split(separator: ",").compactMap { Int($0) })
    }

    @Test("each sparkline draws what /metrics counts; an hour later the window is empty; the admin API answers the same")
    func sameAsMetrics() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await ConsoleTests.makeOperator(api, email: "fiona@bank.example", phone: "+41790000051", roles: ["fraud"])
            // A completed sign-in (a code sent), a user locked by five failed rounds, and a
            // third code to one phone refused by its budget.
            _ = try await api.createUser("zoe@example.com", phone: "+41790000052")
            _ = try await ConsoleTests.apiSignIn(api, email: "zoe@example.com", phone: "+41790000052")
            _ = try await api.createUser("yves@example.com", phone: "+41790000053")
            try await ConsoleTests.lock(api, email: "yves@example.com")
            _ = try await api.createUser("ute@example.com", phone: "+41790000054")
            var sends: [Int] = []
            for _ in 0..<3 {
                let challenge = try await api.startChallenge(email: "ute@example.com")
                sends.append(try await api.sendCode(challenge.challengeId, .smsOTP).status)
            }
            #expect(sends == [202, 202, 429])

            let browser = PageBrowser(api: api)
            try await ConsoleTests.signIn(browser, email: "fiona@bank.example", phone: "+41790000051")
            let page = try await browser.get("/console/overview")
            #expect(page.status == 200)
            let html = ConsoleTests.html(page)
            #expect(html.contains("href=\"/console/overview\""), "the bar links the page")
            let metrics = String(decoding: try await api.send(.get, "/metrics").body, as: UTF8.self)
            let expected: [(String, Int)] = [
                ("challenges_created", Self.metric(metrics, "sca_challenges_total", #"event="created""#)),
                ("challenges_completed", Self.metric(metrics, "sca_challenges_total", #"event="completed""#)),
                ("failed_proofs", Self.metric(metrics, "sca_proofs_total", #"outcome="rejected""#)),
                ("lockouts", Self.metric(metrics, "sca_lockouts_total")),
                ("codes_sent", Self.metric(metrics, "sca_codes_sent_total")),
            ]
            for (series, count) in expected {
                let drawn = try Self.drawn(html, series)
                #expect(drawn.total == count, "\(series)")
                #expect(drawn.counts.count == 60 && drawn.counts.reduce(0, +) == count, "\(series)")
            }
            // The refusal spent one budget here, so /metrics has one series for it.
            #expect(try Self.drawn(html, "budget_refusals").total == Self.metric(metrics, "sca_rate_limited_total"))
            #expect(try Self.drawn(html, "lockouts").total == 1)
            #expect(try Self.drawn(html, "failed_proofs").total == 5)
            #expect(try Self.drawn(html, "budget_refusals").total == 1)

            let scripted = try await api.send(.get, "/admin/v1/activity", admin: true)
            #expect(scripted.status == 200)
            let activity = try scripted.decode(ActivityResponse.self)
            for (series, count) in expected {
                #expect(activity.series[series]?.reduce(0, +) == count, "\(series)")
            }

            // An hour and a minute later (a new sign-in: the session idled out), it has all
            // left the window, while /metrics keeps counting since the start.
            api.clock.advance(by: 3_660)
            let later = PageBrowser(api: api)
            try await ConsoleTests.signIn(later, email: "fiona@bank.example", phone: "+41790000051")
            let hourLater = ConsoleTests.html(try await later.get("/console/overview"))
            #expect(try Self.drawn(hourLater, "lockouts").total == 0)
            // This sign-in's own challenge and code are the window's only ones.
            #expect(try Self.drawn(hourLater, "challenges_completed").total == 1)
        }
    }

    @Test("an operator without risk:read has no overview link and is refused it")
    func refused() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await ConsoleTests.makeOperator(api, email: "sam@bank.example", phone: "+41790000055", roles: ["support"])
            let browser = PageBrowser(api: api)
            try await ConsoleTests.signIn(browser, email: "sam@bank.example", phone: "+41790000055")
            #expect(!ConsoleTests.html(try await browser.get("/console/users")).contains("/console/overview"))
            #expect(try await browser.get("/console/overview").status == 403)
        }
    }
}
