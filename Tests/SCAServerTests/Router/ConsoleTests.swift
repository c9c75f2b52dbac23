import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import Testing

/// The operator console through its real routes, as a browser without JavaScript drives it:
/// the sign-in with the hosted factor forms, the users, one user's page and its actions, each
/// under the admin API's rules (roles re-read on every request, a fresh authentication for a
/// change, the operator as the audit trail's actor).
@Suite("Operator console")
struct ConsoleTests {
    static let password = "correct horse battery"

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.roles = [
            "supervisor": ["users:read", "users:write", "users:unblock", "devices:read", "devices:write", "users:reveal"],
            "support": ["users:read", "devices:read"],
        ]
    }

    /// An operator with `roles` and an SMS phone.
    static func makeOperator(_ api: APIClient, email: String, phone: String, roles: [String]) async throws -> String {
        let id = try await api.createUser(email, phone: phone)
        let set = try await api.send(.put, "/admin/v1/users/\(id)/roles", body: try WireJSON.encoder().encode(SetRolesRequest(roles: roles)), admin: true)
        #expect(set.status == 200)
        return id
    }

    /// The console's sign-in (or a step-up it asked for): password, then an SMS code.
    /// - Returns: the answer to the last proof (a redirect when it worked).
    @discardableResult
    static func proveIt(_ browser: PageBrowser, phone: String) async throws -> APIResponse {
        let factors = try await browser.get("/console")
        #expect(factors.status == 200)
        try await browser.submit(factors, action: "/console/signin/proof", ["method": "password", "credential": password])
        let second = try await browser.get("/console")
        try await browser.submit(second, action: "/console/signin/send", ["method": "sms_otp"])
        let withCode = try await browser.get("/console")
        return try await browser.submit(
            withCode, action: "/console/signin/proof", ["method": "sms_otp", "credential": try browser.api.lastCode(sentTo: phone)])
    }

    @discardableResult
    static func signIn(_ browser: PageBrowser, email: String, phone: String) async throws -> APIResponse {
        let start = try await browser.get("/console")
        #expect(start.status == 200)
        try await browser.submit(start, action: "/console/signin/email", ["email": email])
        return try await proveIt(browser, phone: phone)
    }

    /// Five wrong passwords: the user is blocked.
    static func lock(_ api: APIClient, email: String) async throws {
        for _ in 0..<5 {
            let challenge = try await api.startChallenge(email: email)
            try await api.prove(challenge.challengeId, .password, "wrong password")
        }
    }

    static func html(_ response: APIResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("an operator finds a blocked user, reads why, unblocks them after a step-up, and the user signs in again")
    func unblockWithStepUp() async throws {
        try await TestServer(Self.configure).run { api in
            let operatorID = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let customer = try await api.createUser("carla.meier@example.com", phone: "+41790000002")
            try await Self.lock(api, email: "carla.meier@example.com")

            let browser = PageBrowser(api: api)
            let signedIn = try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            #expect(signedIn.status == 303)
            #expect(signedIn.headers[.location] == "/console/users")
            let cookie = try #require(browser.setCookies.first { $0.hasPrefix("sca_console=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/console"))

            // Found by the start of the e-mail, shown blocked.
            let found = try await browser.get("/console/users?q=carla.m")
            #expect(found.status == 200)
            #expect(Self.html(found).contains("/console/users/\(customer)"))
            #expect(Self.html(found).contains("Blocked until"))
            // The page says why: five failed attempts, each on the timeline, never which factor.
            let page = try await browser.get("/console/users/\(customer)")
            let text = Self.html(page)
            #expect(text.contains("Failed attempt"))
            #expect(text.contains("Access blocked"))
            #expect(!text.contains("password") || !text.contains("wrong"))
            #expect(text.contains("action=\"/console/users/\(customer)/unblock\""))

            // Six minutes after the sign-in (the session kept alive), the action asks for a step-up.
            api.clock.advance(by: 240)
            _ = try await browser.get("/console/users/\(customer)")
            api.clock.advance(by: 120)
            let stale = try await browser.get("/console/users/\(customer)")
            let asked = try await browser.submit(stale, action: "/console/users/\(customer)/unblock", [:])
            #expect(asked.headers[.location] == "/console")
            #expect(try await api.services.engine.store.user(id: customer)?.lockout.lockedUntil != nil, "nothing done before the step-up")
            let stepUpPage = try await browser.get("/console")
            #expect(Self.html(stepUpPage).contains("more than five minutes old"))
            let confirmed = try await Self.proveIt(browser, phone: "+41790000001")
            #expect(confirmed.headers[.location] == "/console/users/\(customer)")

            let fresh = try await browser.get("/console/users/\(customer)")
            #expect(Self.html(fresh).contains("Confirmed."))
            let unblocked = try await browser.submit(fresh, action: "/console/users/\(customer)/unblock", [:])
            #expect(unblocked.status == 303)
            let after = try await browser.get("/console/users/\(customer)")
            #expect(Self.html(after).contains("The user is unblocked"))
            #expect(!Self.html(after).contains("action=\"/console/users/\(customer)/unblock\""))

            // The trail names the operator; the user signs in again.
            let entries = try await api.services.engine.store.auditEntries(userID: customer, before: nil, limit: 10)
            let unblock = try #require(entries.first { $0.draft.event == "admin.user_unblocked" })
            #expect(unblock.draft.actor == "operator:\(operatorID)")
            let challenge = try await api.startChallenge(email: "carla.meier@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, Self.password).status == 200)
        }
    }

    @Test("a support role without users:unblock sees no unblock button, and the service refuses the action, recorded")
    func withoutPermission() async throws {
        try await TestServer(Self.configure).run { api in
            let operatorID = try await Self.makeOperator(api, email: "sam@bank.example", phone: "+41790000003", roles: ["support"])
            let customer = try await api.createUser("dan@example.com", phone: "+41790000004")
            try await Self.lock(api, email: "dan@example.com")
            let browser = PageBrowser(api: api)
            try await Self.signIn(browser, email: "sam@bank.example", phone: "+41790000003")
            let page = try await browser.get("/console/users/\(customer)")
            #expect(page.status == 200)
            #expect(!Self.html(page).contains("/unblock"))
            // Masked without users:reveal.
            #expect(Self.html(page).contains("d•••@example.com"))
            #expect(!Self.html(page).contains("dan@example.com"))

            // What a crafted POST reaches: the service, which refuses and records it.
            let console = api.services.engine.console
            let tokens = try #require(try await Self.apiSignIn(api, email: "sam@bank.example", phone: "+41790000003").tokens)
            let actor = try await console.resume(try await console.open(tokens))
            await #expect(throws: Problem.self) { try await console.unblock(customer, by: actor) }
            #expect(try await api.services.engine.store.user(id: customer)?.lockout.lockedUntil != nil)
            let denied = try await api.services.engine.store.auditEntries(userID: operatorID, before: nil, limit: 5)
            #expect(denied.contains { $0.draft.event == "admin.access_denied" && $0.draft.details["scope"] == "users:unblock" })
        }
    }

    /// Password and SMS on the JSON API.
    static func apiSignIn(_ api: APIClient, email: String, phone: String) async throws -> ProofResponse {
        let challenge = try await api.startChallenge(email: email)
        #expect(try await api.prove(challenge.challengeId, .password, password).status == 200)
        #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
        let done = try await api.prove(challenge.challengeId, .smsOTP, try api.lastCode(sentTo: phone))
        return try done.decode(ProofResponse.self)
    }

    @Test("a forged CSRF token is refused and changes nothing")
    func forgedCSRF() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let customer = try await api.createUser("erin@example.com", phone: "+41790000005")
            try await Self.lock(api, email: "erin@example.com")
            let browser = PageBrowser(api: api)
            try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            let page = try await browser.get("/console/users/\(customer)")
            let forged = try await browser.submit(page, action: "/console/users/\(customer)/unblock", [:], csrf: "forged")
            #expect(forged.status == 403)
            // Another action's token is no token for this one.
            let other = try #require(PageBrowser.csrf(in: page, action: "/console/signout"))
            let swapped = try await browser.submit(page, action: "/console/users/\(customer)/unblock", [:], csrf: other)
            #expect(swapped.status == 403)
            #expect(try await api.services.engine.store.user(id: customer)?.lockout.lockedUntil != nil)
        }
    }

    @Test("a user without an admin permission is refused with a page, and keeps no console session")
    func nonOperatorRefused() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await api.createUser("frank@example.com", phone: "+41790000006")
            let browser = PageBrowser(api: api)
            let answer = try await Self.signIn(browser, email: "frank@example.com", phone: "+41790000006")
            #expect(answer.status == 403)
            #expect(Self.html(answer).contains("No access to the console"))
            #expect(browser.cookies["sca_console"] == nil)
            #expect(try await browser.get("/console/users").headers[.location] == "/console")
        }
    }

    @Test("a partner's token of an operator opens no console: neither as a bearer nor as a sign-in")
    func partnerTokenRefused() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let partner = try await PartnerFixture.make(api)
            let (verifier, challenge) = PartnerFixture.pkce()
            let query = try await partner.signIn(PageBrowser(api: api), email: "olivia@bank.example", phone: "+41790000001", challenge: challenge)
            let exchanged = try await partner.exchange(code: try #require(query["code"]), verifier: verifier)
            let delegated = try #require(exchanged.json["access_token"] as? String)

            let asBearer = try await api.send(.get, "/console/users", bearer: delegated)
            #expect(asBearer.status == 303)
            #expect(asBearer.headers[.location] == "/console")
            let console = api.services.engine.console
            await #expect(throws: Problem.self) {
                _ = try await console.open(TokenResponse(accessToken: delegated, expiresIn: 300, refreshToken: nil, operation: .login, amr: []))
            }
        }
    }

    @Test("a session idles out after five minutes; signing out ends it on the store")
    func idleAndSignOut() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let browser = PageBrowser(api: api)
            try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            #expect(try await browser.get("/console/users").status == 200)
            api.clock.advance(by: 301)
            let idle = try await browser.get("/console/users")
            #expect(idle.headers[.location] == "/console")
            #expect(Self.html(try await browser.get("/console")).contains("Your console session has ended"))

            try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            let kept = browser.cookies["sca_console"]
            let page = try await browser.get("/console/users")
            let out = try await browser.submit(page, action: "/console/signout", [:])
            #expect(out.status == 200)
            #expect(Self.html(out).contains("You are signed out"))
            // The old cookie, replayed, finds its session ended.
            let replayed = try await api.client.execute(
                uri: "/console/users", method: .get, headers: [.cookie: "sca_console=\(try #require(kept))"], body: nil)
            #expect(replayed.headers[.location] == "/console")
        }
    }

    @Test("an operator removes a lost phone: its cold start is refused from then on")
    func removeLostPhone() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let customer = try await api.createUser("gina@example.com", phone: "+41790000007")
            var phone = TestDevice()
            try await api.activate(&phone, userID: customer)
            let browser = PageBrowser(api: api)
            try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            let found = try await browser.get("/console/users?q=\(phone.deviceID)")
            #expect(Self.html(found).contains("/console/users/\(customer)"))
            let page = try await browser.get("/console/users/\(customer)")
            let removed = try await browser.submit(page, action: "/console/users/\(customer)/devices/\(phone.deviceID)/remove", [:])
            #expect(removed.status == 303)
            #expect(Self.html(try await browser.get("/console/users/\(customer)")).contains("The device is removed"))

            let coldStart = try await api.startChallenge(.login, userID: customer, device: phone)
            #expect(coldStart.status >= 400)
        }
    }

    @Test("a restricted user shows as such; the operator lifts the hold only once the cooling-off is over")
    func liftRestriction() async throws {
        try await TestServer(Self.configure).run { api in
            _ = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let customer = try await api.createUser("hana@example.com", phone: "+41790000008")
            let reset = try await PasswordResetTests.reset(api, token: try await PasswordResetTests.codeToken(api, email: "hana@example.com"))
            #expect(try reset.decode(PasswordResetResponse.self).outcome == .restricted)

            let browser = PageBrowser(api: api)
            try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            let page = try await browser.get("/console/users/\(customer)")
            #expect(Self.html(page).contains("Restricted after a password reset"))
            let lift = "/console/users/\(customer)/restriction/lift"
            #expect(Self.html(page).contains("action=\"\(lift)\""))
            // Too early: refused, and the hold stays.
            #expect(try await browser.submit(page, action: lift, [:]).status == 303)
            #expect(Self.html(try await browser.get("/console/users/\(customer)")).contains("could not be done"))
            #expect(try await api.services.engine.store.user(id: customer)?.isRestricted == true)

            // A day later (a new sign-in: the first session idled out), it is lifted.
            api.clock.advance(by: 86_400)
            let nextDay = PageBrowser(api: api)
            try await Self.signIn(nextDay, email: "olivia@bank.example", phone: "+41790000001")
            let later = try await nextDay.get("/console/users/\(customer)")
            #expect(try await nextDay.submit(later, action: lift, [:]).status == 303)
            let after = Self.html(try await nextDay.get("/console/users/\(customer)"))
            #expect(after.contains("The restriction is lifted"))
            #expect(!after.contains("action=\"\(lift)\""))
            #expect(try await api.services.engine.store.user(id: customer)?.isRestricted == false)
            let entries = try await api.services.engine.store.auditEntries(userID: customer, before: nil, limit: 10)
            #expect(entries.first { $0.draft.event == "user.restriction_lifted" }?.draft.actor.hasPrefix("operator:") == true)
        }
    }

    @Test("an operator ends a partner's session alone, and sets roles from the ones the configuration defines, never their own")
    func endOneSessionAndSetRoles() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.roles["supervisor", default: []].append("users:roles")
        }.run { api in
            let operatorID = try await Self.makeOperator(api, email: "olivia@bank.example", phone: "+41790000001", roles: ["supervisor"])
            let customer = try await api.createUser("ida@example.com", phone: "+41790000009")
            let own = try #require(try await Self.apiSignIn(api, email: "ida@example.com", phone: "+41790000009").tokens)
            let partner = try await PartnerFixture.make(api)
            let (verifier, challenge) = PartnerFixture.pkce()
            let query = try await partner.signIn(PageBrowser(api: api), email: "ida@example.com", phone: "+41790000009", challenge: challenge)
            let code = try #require(query["code"])
            let delegated = try #require(try await partner.exchange(code: code, verifier: verifier).json["access_token"] as? String)
            let partnerSession = try #require(try await api.services.engine.store.holdings(userID: customer).sessions.first { $0.clientID != nil })

            let browser = PageBrowser(api: api)
            try await Self.signIn(browser, email: "olivia@bank.example", phone: "+41790000001")
            let page = try await browser.get("/console/users/\(customer)")
            let ended = try await browser.submit(page, action: "/console/users/\(customer)/sessions/\(partnerSession.id)/end", [:])
            #expect(ended.status == 303)
            #expect(try await api.introspect(delegated).active == false)
            #expect(try await api.introspect(own.accessToken).active == true)
            // The roles form is never on the operator's own page.
            let mine = try await browser.get("/console/users/\(operatorID)")
            #expect(!Self.html(mine).contains("action=\"/console/users/\(operatorID)/roles\""), "nobody sets their own roles")

            let again = try await browser.get("/console/users/\(customer)")
            #expect(Self.html(again).contains("id=\"role-support\""))
            let saved = try await browser.submit(again, action: "/console/users/\(customer)/roles", ["role.support": "on"])
            #expect(saved.status == 303)
            #expect(try await api.services.engine.store.user(id: customer)?.roles == ["support"])
            let trail = try await api.services.engine.store.auditEntries(userID: customer, before: nil, limit: 20)
            #expect(trail.contains { $0.draft.event == "admin.roles_changed" && $0.draft.actor == "operator:\(operatorID)" })
            #expect(trail.contains { $0.draft.event == "admin.sessions_ended" && $0.draft.sessionID == partnerSession.id })
        }
    }

    @Test("the console speaks the reader's language, and its language switch comes back to the console")
    func language() async throws {
        try await TestServer(Self.configure).run { api in
            let browser = PageBrowser(api: api, acceptLanguage: "de-CH, de;q=0.9")
            let page = try await browser.get("/console")
            #expect(Self.html(page).contains("Bei der Operator-Konsole anmelden"))
            #expect(Self.html(page).contains("/hosted/language?lang=fr&amp;next=/console\""))
            let switched = try await browser.get("/hosted/language?lang=fr&next=%2Fconsole%2Fusers%3Fq%3Danna")
            #expect(switched.status == 303)
            #expect(switched.headers[.location] == "/console/users?q=anna")
            #expect(Self.html(try await browser.get("/console")).contains("Connexion à la console des opérateurs"))
            // Elsewhere is still refused.
            #expect(try await browser.get("/hosted/language?lang=fr&next=%2Fconsolex").status == 400)
        }
    }

    @Test("the admin API does what the console does: search, a user's events, ending their sessions")
    func adminParity() async throws {
        try await TestServer(Self.configure).run { api in
            let customer = try await api.createUser("hana@example.com", phone: "+41790000008")
            _ = try await Self.apiSignIn(api, email: "hana@example.com", phone: "+41790000008")
            let found = try await api.send(.get, "/admin/v1/users?search=hana", admin: true)
            #expect(try found.decode([UserResponse].self).map(\.userId) == [customer])
            let byPhone = try await api.send(.get, "/admin/v1/users?search=%2B41790000008", admin: true)
            #expect(try byPhone.decode([UserResponse].self).map(\.userId) == [customer])
            let events = try await api.send(.get, "/admin/v1/users/\(customer)/events?limit=3", admin: true)
            #expect(events.status == 200)
            #expect(events.json["entries"].flatMap { $0 as? [Any] }?.count == 3)
            let ended = try await api.send(.delete, "/admin/v1/users/\(customer)/sessions", admin: true)
            #expect(ended.status == 200)
            #expect(ended.json["ended"] as? Int == 1)
            #expect(try await api.send(.get, "/admin/v1/users/\(customer)/events?limit=0", admin: true).status == 400)
            // A search longer than any e-mail address is refused, not answered empty.
            let long = String(repeating: "0", count: 255)
            #expect(try await api.send(.get, "/admin/v1/users?search=\(long)", admin: true).status == 400)
            #expect(try await api.send(.get, "/admin/v1/users?search=\(long.dropLast())", admin: true).status == 200)
        }
    }
}
