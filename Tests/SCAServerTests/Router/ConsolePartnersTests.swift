import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Testing

/// The console's partners page through the real routes: each client with what it holds and
/// how the messages to it go, one client's failed deliveries, and an operator's retry, which
/// the background sender then really attempts; the same on the admin API.
@Suite("Operator console: partners")
struct ConsolePartnersTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        ConsoleTests.configure(&configuration)
        configuration.roles["partners"] = ["clients:read", "clients:write"]
        configuration.roles["partners_reader"] = ["clients:read"]
        // The receiver below listens on loopback.
        configuration.webhookAllowPrivateAddresses = true
    }

    /// A delivery given up after every attempt failed, and one delivered, for `clientID`.
    static func seedDeliveries(_ api: APIClient, clientID: String) async throws {
        let now = api.clock.now()
        try await api.services.engine.store.insertWebhookDelivery(
            WebhookDeliveryRecord(
                id: "evt_given_up", clientID: clientID, subjectID: "op_1", body: #"{"type":"operation.finished"}"#,
                status: .abandoned, attempts: 6, nextAttemptAt: now, lastHTTPStatus: 500, createdAt: now.addingTimeInterval(-4000),
                finishedAt: now.addingTimeInterval(-10)))
        try await api.services.engine.store.insertWebhookDelivery(
            WebhookDeliveryRecord(
                id: "evt_delivered", clientID: clientID, subjectID: "op_2", body: "{}", status: .delivered, attempts: 1,
                nextAttemptAt: now, lastHTTPStatus: 200, createdAt: now.addingTimeInterval(-60), finishedAt: now.addingTimeInterval(-59)))
    }

    @Test("the partners page shows what a client holds and a given-up message; sent again from its page, it is really attempted")
    func retryFromThePage() async throws {
        try await TestServer(Self.configure).run { api in
            let operatorID = try await ConsoleTests.makeOperator(
                api, email: "petra@bank.example", phone: "+41790000041", roles: ["partners", "supervisor"])
            _ = try await api.createUser("xena@example.com", phone: "+41790000042")
            let partner = try await PartnerFixture.make(api)
            let (_, challenge) = PartnerFixture.pkce()
            _ = try await partner.signIn(PageBrowser(api: api), email: "xena@example.com", phone: "+41790000042", challenge: challenge)
            // Its webhook points at a port nobody listens on: a retry fails again, as a real one would.
            let hook = try await api.send(
                .put, "/admin/v1/clients/\(partner.clientID)/webhook",
                body: try WireJSON.encoder().encode(SetPartnerWebhookRequest(url: "http://127.0.0.1:9/hooks")), admin: true)
            #expect(hook.status == 200)
            try await Self.seedDeliveries(api, clientID: partner.clientID)

            let browser = PageBrowser(api: api)
            try await ConsoleTests.signIn(browser, email: "petra@bank.example", phone: "+41790000041")
            let list = ConsoleTests.html(try await browser.get("/console/partners"))
            #expect(list.contains("href=\"/console/partners\""), "the bar links the page")
            #expect(list.contains("href=\"/console/partners/\(partner.clientID)\""))
            #expect(list.contains("1 given up"))
            #expect(list.contains("OAuth 2.0 with PKCE"))

            let path = "/console/partners/\(partner.clientID)"
            let page = try await browser.get(path)
            let text = ConsoleTests.html(page)
            #expect(text.contains(PartnerFixture.redirectURI))
            #expect(text.contains("http://127.0.0.1:9/hooks"))
            #expect(text.contains("evt_given_up"))
            #expect(!text.contains("evt_delivered"), "a delivered message is no failure")
            let action = "\(path)/deliveries/evt_given_up/retry"
            #expect(text.contains("action=\"\(action)\""))

            #expect(try await browser.submit(page, action: action, [:]).status == 303)
            let after = ConsoleTests.html(try await browser.get(path))
            #expect(after.contains("The message is sent again"))
            let retried = try #require(try await api.services.engine.store.webhookDelivery(id: "evt_given_up"))
            #expect(retried.status == .pending && retried.attempts == 0 && retried.finishedAt == nil)
            let entries = try await api.services.engine.store.auditEntries(after: 0, limit: 500)
            let audited = try #require(entries.last { $0.draft.event == "webhook.retried" })
            #expect(audited.draft.actor == "operator:\(operatorID)")
            #expect(audited.draft.details["eventId"] == "evt_given_up")

            // The background sender takes it: one more attempt, failed again, retried later.
            #expect(try await api.services.engine.webhooks.deliverDue() >= 1)
            let attempted = try #require(try await api.services.engine.store.webhookDelivery(id: "evt_given_up"))
            #expect(attempted.attempts == 1 && attempted.status == .pending && attempted.lastHTTPStatus == nil)
            let again = ConsoleTests.html(try await browser.get(path))
            #expect(again.contains("1 failing, retried"))
            #expect(again.contains("Not reached"))
        }
    }

    @Test("without clients:read no partners link and a refusal; with it alone, no retry button and the retry refused")
    func permissions() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await ConsoleTests.makeOperator(api, email: "sam@bank.example", phone: "+41790000043", roles: ["support"])
            _ = try await ConsoleTests.makeOperator(api, email: "rita@bank.example", phone: "+41790000044", roles: ["partners_reader"])
            let partner = try await PartnerFixture.make(api)
            try await Self.seedDeliveries(api, clientID: partner.clientID)

            let support = PageBrowser(api: api)
            try await ConsoleTests.signIn(support, email: "sam@bank.example", phone: "+41790000043")
            #expect(!ConsoleTests.html(try await support.get("/console/users")).contains("/console/partners"))
            #expect(try await support.get("/console/partners").status == 403)
            #expect(try await support.get("/console/partners/\(partner.clientID)").status == 403)

            let reader = PageBrowser(api: api)
            try await ConsoleTests.signIn(reader, email: "rita@bank.example", phone: "+41790000044")
            let page = try await reader.get("/console/partners/\(partner.clientID)")
            #expect(page.status == 200)
            #expect(ConsoleTests.html(page).contains("evt_given_up"))
            #expect(!ConsoleTests.html(page).contains("/retry"))
            let console = api.services.engine.console
            let tokens = try #require(try await ConsoleTests.apiSignIn(api, email: "rita@bank.example", phone: "+41790000044").tokens)
            let actor = try await console.resume(try await console.open(tokens))
            await #expect(throws: Problem.self) { try await console.retryDelivery("evt_given_up", of: partner.clientID, by: actor) }
            #expect(try await api.services.engine.store.webhookDelivery(id: "evt_given_up")?.status == .abandoned)
            #expect(try await reader.get("/console/partners/cli_nobody").status == 404)
        }
    }

    @Test("the admin API: a client's activity, its failed deliveries, and a retry once; another's delivery is not found")
    func adminParity() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await api.createUser("yara@example.com", phone: "+41790000045")
            let partner = try await PartnerFixture.make(api)
            let other = try await PartnerFixture.make(api)
            let (_, challenge) = PartnerFixture.pkce()
            _ = try await partner.signIn(PageBrowser(api: api), email: "yara@example.com", phone: "+41790000045", challenge: challenge)
            try await Self.seedDeliveries(api, clientID: partner.clientID)

            let activity = try await api.send(.get, "/admin/v1/clients/\(partner.clientID)/activity", admin: true)
            #expect(activity.status == 200)
            let read = try activity.decode(PartnerActivityResponse.self)
            #expect(read.openSessions == 1 && read.grantedUsers == 1)
            #expect(read.deliveries == WebhookDeliveryTally(pending: 0, retrying: 0, delivered: 1, abandoned: 1))

            let failed = try await api.send(.get, "/admin/v1/clients/\(partner.clientID)/deliveries/failed", admin: true)
            #expect(try failed.decode([WebhookDeliveryResponse].self).map(\.id) == ["evt_given_up"])
            #expect(!String(decoding: failed.body, as: UTF8.self).contains("operation.finished"), "never the body")

            let retry = "/admin/v1/clients/\(partner.clientID)/deliveries/evt_given_up/retry"
            let first = try await api.send(.post, retry, admin: true)
            #expect(first.status == 200)
            #expect(try first.decode(WebhookDeliveryResponse.self).status == "pending")
            let second = try await api.send(.post, retry, admin: true)
            #expect(second.status == 409)
            #expect(second.problem?.code == .webhookNotRetryable)
            let delivered = try await api.send(.post, "/admin/v1/clients/\(partner.clientID)/deliveries/evt_delivered/retry", admin: true)
            #expect(delivered.problem?.code == .webhookNotRetryable)
            // Another client's delivery, or an unknown client, is not found.
            let elsewhere = try await api.send(.post, "/admin/v1/clients/\(other.clientID)/deliveries/evt_given_up/retry", admin: true)
            #expect(elsewhere.status == 404)
            #expect(try await api.send(.get, "/admin/v1/clients/cli_nobody/activity", admin: true).problem?.code == .clientNotFound)
        }
    }
}
