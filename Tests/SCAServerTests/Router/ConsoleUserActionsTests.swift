import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Testing

/// The user page's remaining actions and readings through the real routes: removing a lost
/// authenticator app, taking a partner's access back, the payments on the timeline with their
/// amount and payee, and a search longer than a page; each also on the admin API.
@Suite("Operator console: user actions")
struct ConsoleUserActionsTests {
    static let operatorPhone = "+41790000001"

    static func signedInOperator(_ api: APIClient) async throws -> (browser: PageBrowser, operatorID: String) {
        let operatorID = try await ConsoleTests.makeOperator(
            api, email: "olivia@bank.example", phone: Self.operatorPhone, roles: ["supervisor"])
        let browser = PageBrowser(api: api)
        #expect(try await ConsoleTests.signIn(browser, email: "olivia@bank.example", phone: Self.operatorPhone).status == 303)
        return (browser, operatorID)
    }

    @Test("an operator removes a lost authenticator app: its codes are refused, the user is told, a new one can be set up")
    func removeAuthenticatorApp() async throws {
        try await TestServer(ConsoleTests.configure).run { api in
            let customer = try await api.createUser("tom@example.com", phone: "+41790000021")
            let totp = try await api.enrollTOTP(customer)
            let (browser, operatorID) = try await Self.signedInOperator(api)

            let page = try await browser.get("/console/users/\(customer)")
            let action = "/console/users/\(customer)/totp/remove"
            #expect(ConsoleTests.html(page).contains("action=\"\(action)\""))
            #expect(try await browser.submit(page, action: action, [:]).status == 303)
            let after = ConsoleTests.html(try await browser.get("/console/users/\(customer)"))
            #expect(after.contains("The authenticator app is removed"))
            #expect(!after.contains("action=\"\(action)\""), "nothing left to remove")
            #expect(try await api.services.engine.store.user(id: customer)?.sealedTOTPSeed == nil)

            // The old app's code no longer proves anything; the user heard of it.
            let challenge = try await api.startChallenge(email: "tom@example.com")
            #expect(!challenge.methods.map(\.id).contains(.totp))
            #expect(try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).status >= 400)
            let told = try await LocalizedMessageTests.lastMessage(api, to: "+41790000021")
            #expect(told.contains("authenticator app of your account was removed"))
            let entries = try await api.services.engine.store.auditEntries(userID: customer, before: nil, limit: 10)
            #expect(entries.first { $0.draft.event == "admin.totp_removed" }?.draft.actor == "operator:\(operatorID)")
            // The timeline says the user was told, and where; never the text.
            let alert = try #require(entries.first { $0.draft.event == "alert.sent" })
            #expect(alert.draft.details == ["purpose": "security_alert", "alert": "totpRemoved", "channels": "email,sms"])
            let timeline = ConsoleTests.html(try await browser.get("/console/users/\(customer)"))
            #expect(timeline.contains("Alert sent to the user") && timeline.contains("totpRemoved · email, sms"))

            // The admin API: nothing left to remove is 404; a new app can be enrolled.
            let again = try await api.send(.delete, "/admin/v1/users/\(customer)/totp", admin: true)
            #expect(again.status == 404)
            _ = try await api.enrollTOTP(customer)
            #expect(try await api.services.engine.store.user(id: customer)?.sealedTOTPSeed != nil)
            #expect(try await api.send(.delete, "/admin/v1/users/\(customer)/totp", admin: true).status == 200)
            #expect(try await api.services.engine.store.user(id: customer)?.sealedTOTPSeed == nil)
            #expect(try await api.send(.delete, "/admin/v1/users/usr_nobody/totp", admin: true).problem?.code == .userNotFound)
        }
    }

    @Test("the support role sees no removal of an app or of a partner's access, and a crafted POST changes nothing")
    func supportCannot() async throws {
        try await TestServer(ConsoleTests.configure).run { api in
            _ = try await ConsoleTests.makeOperator(api, email: "sam@bank.example", phone: "+41790000031", roles: ["support"])
            let customer = try await api.createUser("una@example.com", phone: "+41790000022")
            _ = try await api.enrollTOTP(customer)
            let browser = PageBrowser(api: api)
            try await ConsoleTests.signIn(browser, email: "sam@bank.example", phone: "+41790000031")
            let page = try await browser.get("/console/users/\(customer)")
            #expect(!ConsoleTests.html(page).contains("/totp/remove"))
            // A POST without the form's token is refused before anything else.
            #expect(try await browser.submit(page, action: "/console/users/\(customer)/totp/remove", [:]).status == 403)
            // What a crafted POST with a token would reach: the service, which refuses.
            let console = api.services.engine.console
            let tokens = try #require(try await ConsoleTests.apiSignIn(api, email: "sam@bank.example", phone: "+41790000031").tokens)
            let actor = try await console.resume(try await console.open(tokens))
            await #expect(throws: Problem.self) { try await console.removeAuthenticatorApp(of: customer, by: actor) }
            await #expect(throws: Problem.self) { _ = try await console.revokePartner("any", of: customer, by: actor) }
            #expect(try await api.services.engine.store.user(id: customer)?.sealedTOTPSeed != nil)
        }
    }

    @Test("an operator takes a partner's access back: its token stops, the user's own does not; the admin API the same")
    func revokePartner() async throws {
        try await TestServer(ConsoleTests.configure).run { api in
            let customer = try await api.createUser("vera@example.com", phone: "+41790000023")
            let own = try #require(try await ConsoleTests.apiSignIn(api, email: "vera@example.com", phone: "+41790000023").tokens)
            let partner = try await PartnerFixture.make(api)
            func delegatedToken() async throws -> String {
                let (verifier, challenge) = PartnerFixture.pkce()
                let query = try await partner.signIn(
                    PageBrowser(api: api), email: "vera@example.com", phone: "+41790000023", challenge: challenge)
                let code = try #require(query["code"])
                return try #require(try await partner.exchange(code: code, verifier: verifier).json["access_token"] as? String)
            }
            let delegated = try await delegatedToken()
            let (browser, operatorID) = try await Self.signedInOperator(api)

            let page = try await browser.get("/console/users/\(customer)")
            let action = "/console/users/\(customer)/partners/\(partner.clientID)/revoke"
            #expect(ConsoleTests.html(page).contains("action=\"\(action)\""))
            #expect(try await browser.submit(page, action: action, [:]).status == 303)
            let after = ConsoleTests.html(try await browser.get("/console/users/\(customer)"))
            #expect(after.contains("The partner&#39;s access is taken back") || after.contains("The partner's access is taken back"))
            #expect(!after.contains("action=\"\(action)\""), "the partner holds nothing more")
            #expect(after.contains(partner.clientID), "the partner stays listed with its last sign-in")
            #expect(try await api.introspect(delegated).active == false)
            #expect(try await api.introspect(own.accessToken).active == true)
            let entries = try await api.services.engine.store.auditEntries(userID: customer, before: nil, limit: 30)
            let revoked = try #require(entries.first { $0.draft.event == "account.partner_revoked" })
            #expect(revoked.draft.actor == "operator:\(operatorID)")
            #expect(revoked.draft.details["client"] == partner.clientID)

            // The admin API: a second sign-in to the partner, taken back by a script.
            let second = try await delegatedToken()
            let byScript = try await api.send(.delete, "/admin/v1/users/\(customer)/partners/\(partner.clientID)", admin: true)
            #expect(byScript.status == 200)
            #expect(byScript.json["sessionsEnded"] as? Int == 1)
            #expect(try await api.introspect(second).active == false)
            let nothing = try await api.send(.delete, "/admin/v1/users/\(customer)/partners/\(partner.clientID)", admin: true)
            #expect(nothing.problem?.code == .partnerAccessNotFound)
            #expect(try await api.send(.delete, "/admin/v1/users/usr_nobody/partners/x", admin: true).problem?.code == .userNotFound)
        }
    }

    @Test("the timeline shows an approved payment's amount and payee, the IBAN masked")
    func paymentOnTimeline() async throws {
        try await TestServer(ConsoleTests.configure).run { api in
            _ = try await api.createUser("walt@example.com", phone: "+41790000024")
            let payment = Transaction(
                amount: "120.00", currency: "EUR", payee: .init(name: "Rent AG", iban: "CH9300762011623852957"))
            let challenge = try await api.startChallenge(.payment, email: "walt@example.com", transaction: payment)
            #expect(try await api.prove(challenge.challengeId, .password, ConsoleTests.password).status == 200)
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            let approved = try await api.prove(challenge.challengeId, .smsOTP, try api.lastCode(sentTo: "+41790000024"))
            #expect(approved.status == 200)
            let customer = try #require(try await api.services.engine.store.user(email: "walt@example.com")?.id)

            let (browser, _) = try await Self.signedInOperator(api)
            let text = ConsoleTests.html(try await browser.get("/console/users/\(customer)"))
            #expect(text.contains("120.00 EUR to Rent AG (\(TransactionRules.maskedIBAN("CH9300762011623852957")))"))
            #expect(!text.contains("CH9300762011623852957"), "the IBAN never whole")
        }
    }

    @Test("a search longer than a page goes on after its last user; the admin API pages the same way")
    func searchPages() async throws {
        try await TestServer(ConsoleTests.configure).run { api in
            var ids: [String: String] = [:]
            for index in 0..<(ConsoleService.searchLimit + 3) {
                let email = String(format: "page%02d@example.com", index)
                ids[email] = try await api.createUser(email)
            }
            let (browser, _) = try await Self.signedInOperator(api)
            let first = ConsoleTests.html(try await browser.get("/console/users?q=page"))
            #expect(first.contains("/console/users/\(ids["page00@example.com"]!)"))
            #expect(first.contains("/console/users/\(ids["page24@example.com"]!)"))
            #expect(!first.contains("/console/users/\(ids["page25@example.com"]!)"))
            let last = ids["page24@example.com"]!
            let next = "/console/users?q=page&amp;after=\(last)"
            #expect(first.contains("href=\"\(next)\""))
            let second = ConsoleTests.html(try await browser.get("/console/users?q=page&after=\(last)"))
            #expect(second.contains("/console/users/\(ids["page25@example.com"]!)"))
            #expect(second.contains("/console/users/\(ids["page27@example.com"]!)"))
            #expect(!second.contains("/console/users/\(ids["page24@example.com"]!)"))
            #expect(!second.contains("after="), "the last page has no next")

            let scripted = try await api.send(.get, "/admin/v1/users?search=page&after=\(ids["page09@example.com"]!)&limit=2", admin: true)
            #expect(try scripted.decode([UserResponse].self).map(\.userId) == [ids["page10@example.com"]!, ids["page11@example.com"]!])
            #expect(try await api.send(.get, "/admin/v1/users?search=page&limit=0", admin: true).status == 400)
            #expect(try await api.send(.get, "/admin/v1/users?search=page&limit=101", admin: true).status == 400)
            #expect(try await api.send(.get, "/admin/v1/users?search=page&after=someone", admin: true).status == 400)
        }
    }

    @Test("a next page's link keeps a phone number's +")
    func phoneSearchLink() async throws {
        try await TestServer(ConsoleTests.configure).run { api in
            for index in 0..<(ConsoleService.searchLimit + 1) {
                _ = try await api.createUser(String(format: "same%02d@example.com", index), phone: "+41790000099")
            }
            let (browser, _) = try await Self.signedInOperator(api)
            let first = ConsoleTests.html(try await browser.get("/console/users?q=%2B41790000099"))
            let link = try #require(first.firstMatch(of: #/href="(/console/users\?q=[^"]*)"/#)).1
            #expect(link.hasPrefix("/console/users?q=%2B41790000099&amp;after=usr_"))
            let second = ConsoleTests.html(try await browser.get(String(link).replacingOccurrences(of: "&amp;", with: "&")))
            #expect(second.contains("same25@example.com"))
            #expect(!second.contains("same24@example.com"))
            #expect(!second.contains("after="))
        }
    }
}
