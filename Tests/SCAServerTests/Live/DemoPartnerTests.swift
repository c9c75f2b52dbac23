import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAPartners
import SCAServer
import Testing

/// `serve --demo`'s partner: what start-up prints is walked through the real
/// routes of a live server: the sign-in URL through the pages to the demo callback, which
/// exchanges the code and shows the id_token, then the printed command (run with curl where
/// it is installed), then the consent it created, back to the demo partner's page.
@Suite("The demo partner of serve --demo")
struct DemoPartnerTests {
    /// Where the printed command posts.
    static let consentPath = "/demo/consent"

    @Test("the printed sign-in URL and consent command work, end to end")
    func printedStepsWork() async throws {
        let server = try await TestServer { $0.demo = true }
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let users = try await DemoSeeder(users: server.services.users).seed()
        let savvy = try #require(users.first { $0.email == "savvy@example.com" })
        let instructions = try await server.services.registerDemoPartner()
        let base = server.services.configuration.baseURL
        let printed = instructions.lines.joined(separator: "\n")
        #expect(printed.contains(instructions.signInURL))
        #expect(printed.contains(instructions.consentCommand))
        #expect(instructions.signInURL.hasPrefix(base + "/oauth2/authorize?"))

        // A second start replaces the first start's client instead of piling them up.
        let again = try await server.services.registerDemoPartner()
        let clients = try await server.services.partnerAccess.partners.list().filter { $0.name == DemoPartner.name }
        #expect(clients.map(\.clientId) == [again.clientID])
        #expect(clients.first?.publicClient == true)

        let app = Application(router: server.services.router())
        try await app.test(.live) { client in
            let live = "http://127.0.0.1:\(try #require(client.port))"
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            let browser = PageBrowser(api: api)
            func path(_ url: String) -> String { url.hasPrefix(base) ? String(url.dropFirst(base.count)) : url }

            // 1. The sign-in URL, through the pages, as savvy.
            let start = try await browser.get(path(again.signInURL))
            #expect(start.status == 200)
            #expect(start.text.contains(DemoPartner.name))
            try await browser.submit(start, action: "/signin/email", ["email": savvy.email])
            try await browser.submit(try await browser.get("/signin"), action: "/signin/proof", ["method": "password", "credential": savvy.password])
            try await browser.submit(try await browser.get("/signin"), action: "/signin/send", ["method": "sms_otp"])
            let code = try api.lastCode(sentTo: try #require(savvy.phone))
            let signedIn = try await browser.submit(
                try await browser.get("/signin"), action: "/signin/proof", ["method": "sms_otp", "credential": code])
            let callback = try #require(signedIn.headers[.location])
            #expect(callback.hasPrefix(base + "/demo/callback?code="))
            let landed = try await browser.get(path(callback))
            #expect(landed.status == 200)
            let userID = try #require(try await server.services.users.find(savvy.email)?.id)
            #expect(landed.text.contains(userID), "the id_token's sub is shown")
            #expect(landed.text.contains("psd2.sca"))
            let sentNonce = try #require(URLComponents(string: instructions.signInURL)?.queryItems?.first { $0.name == "nonce" }?.value)
            #expect(sentNonce.count >= 32, "a fresh nonce per start, not a constant")
            #expect(landed.text.contains(sentNonce), "the id_token carries the nonce the printed URL sent")
            #expect(landed.text.contains(instructions.consentCommand))

            // 2. The printed command, as printed (curl), against the live port.
            let command = instructions.consentCommand.replacingOccurrences(of: base, with: live)
            var output = try await PrintedCommand.run(command)
            if output == nil { output = try await api.send(.post, Self.consentPath).body }
            let consent = try WireJSON.decoder().decode(ConsentResponse.self, from: try #require(output))
            #expect(consent.status == .created)
            #expect(consent.consentUrl.hasPrefix(base + "/consents/cst_"))
            #expect(consent.transaction?.payee.name == "Alice Martin")

            // 3. The consent it printed, approved, back at the demo partner, confirmed.
            let consentPath = path(consent.consentUrl)
            try await browser.submit(
                try await browser.get(consentPath), action: "\(consentPath)/proof",
                ["method": "password", "credential": savvy.password])
            try await browser.submit(try await browser.get(consentPath), action: "\(consentPath)/send", ["method": "sms_otp"])
            let sms = try #require(try api.services.outbox?.messages().last { $0.to == savvy.phone })
            #expect(sms.text.contains("€125.00 to Alice Martin"))
            let approved = try await browser.submit(
                try await browser.get(consentPath), action: "\(consentPath)/proof",
                ["method": "sms_otp", "credential": String(sms.text.prefix(6))])
            let done = try #require(approved.headers[.location])
            #expect(done.hasPrefix(base + "/demo/consent-done?consentId=\(consent.consentId)&status=Accepted"))
            let confirmed = try await browser.get(path(done))
            #expect(confirmed.status == 200)
            #expect(confirmed.text.contains("GET /v1/consents/\(consent.consentId)"))
            #expect(confirmed.text.contains("Accepted"))
            #expect(confirmed.text.contains("present"), "the operation token is there")

            // The code was spent at the callback: a reload is refused by the token endpoint.
            #expect(try await browser.get(path(callback)).text.contains("invalid_grant"))
        }
    }

    @Test("before a sign-in the command says to sign in first; a callback without this demo's state is refused")
    func refusals() async throws {
        try await TestServer { $0.demo = true }.run { api in
            _ = try await api.services.registerDemoPartner()
            let early = try await api.send(.post, Self.consentPath)
            #expect(early.status == 403)
            #expect(early.problem?.code == .forbidden)
            #expect(early.problem?.detail?.contains("sign in") == true)
            for query in ["code=abc&state=not-ours", "code=abc", "state=", ""] {
                let forged = try await PageBrowser(api: api).get("/demo/callback?\(query)")
                #expect(forged.status == 403, "\(query)")
                #expect(forged.text.contains("Sign in again"))
            }
        }
    }

    @Test("without --demo there is no demo partner and no demo route")
    func onlyInDemoMode() async throws {
        try await TestServer().run { api in
            #expect(api.services.partnerAccess.demoPartner == nil)
            await #expect(throws: ConfigurationError.self) { try await api.services.registerDemoPartner() }
            let absent = try await api.send(.post, Self.consentPath)
            #expect(absent.status == 404)
        }
    }
}

