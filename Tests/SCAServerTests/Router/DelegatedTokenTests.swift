import Foundation
import HTTPTypes
import Logging
import NIOCore
import SCACore
import SCAEngine
import SCAServer
import SCAStorage
import SCAStoragePostgres
import Testing

/// A partner's token is the partner's: every token handed to a partner (an authorization
/// code's, a consent's, an operation's, CIBA's) names its client and grant, and the bank's own
/// API refuses it. Each case is an attack that worked while those tokens were plain
/// first-party tokens of the user.
@Suite("Delegated tokens: what a partner can and cannot do with what it was given")
struct DelegatedTokenTests {
    static let mallory = ConsentBeneficiary(name: "Mallory Ltd", iban: "FR7630006000011234567890189")

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.highValuePaymentThreshold = "5000.00"
        configuration.roles = ["support": ["users:read", "users:unblock"]]
    }

    /// A partner signed in as a new user: its tokens, as the token endpoint answered them.
    private func partnerSignIn(_ api: APIClient, email: String, phone: String) async throws -> (PartnerFixture, [String: Any]) {
        let partner = try await PartnerFixture.make(api)
        return (partner, try await partner.tokens(email: email, phone: phone))
    }

    /// Creates a consent and approves it on the hosted page with password and SMS, as the user
    /// did in the attack; returns the consent as the partner then reads it, and the SMS text.
    private func approvedConsent(
        _ api: APIClient, _ partner: PartnerFixture, accessToken: String, phone: String, _ request: CreateConsentRequest
    ) async throws -> (ConsentResponse, String) {
        let created = try await partner.createConsent(request, accessToken: accessToken)
        #expect(created.status == 201, "\(created.problem?.detail ?? "")")
        let consent = try created.decode(ConsentResponse.self)
        let browser = PageBrowser(api: api)
        let path = "/consents/\(consent.consentId)"
        try await browser.givePasswordAndAskForCode(onConsent: path)
        let sms = try #require(try api.services.outbox?.messages().last { $0.to == phone })
        let page = try await browser.get(path)
        let done = try await browser.submit(page, action: "\(path)/proof", ["method": "sms_otp", "credential": String(sms.text.prefix(6))])
        #expect(done.status == 303)
        let read = try await partner.consent(consent.consentId, accessToken: accessToken).decode(ConsentResponse.self)
        #expect(read.status == .accepted)
        return (read, sms.text)
    }

    @Test("a settings_change consent's token cannot issue an activation code, bind a device or change e-mail and password")
    func consentTakeoverChain() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, tokens) = try await partnerSignIn(api, email: "victim@example.com", phone: "+33612345701")
            let access = try #require(tokens["access_token"] as? String)
            let (consent, sms) = try await approvedConsent(
                api, partner, accessToken: access, phone: "+33612345701",
                CreateConsentRequest(
                    operation: .settingsChange, description: "Turn on paperless statements",
                    consentRedirectUrl: PartnerFixture.consentRedirect))
            // The SMS names the partner and what it asked, not "settings change".
            #expect(sms.contains("Shop asks you to approve: Turn on paperless statements"))
            let token = try #require(consent.accessToken)
            let claims = try jwtClaims(token)
            #expect(claims["client_id"] as? String == partner.clientID)
            #expect(claims["azp"] as? String == partner.clientID)
            #expect(claims["aud"] as? String == partner.clientID || (claims["aud"] as? [String]) == [partner.clientID])
            #expect(claims["consent_id"] as? String == consent.consentId)
            #expect(claims["roles"] == nil && claims["permissions"] == nil)

            let activation = try await api.send(.post, "/v1/activations", bearer: token)
            #expect(activation.status == 403)
            #expect(activation.problem?.code == .tokenDelegated)
            // A device is bound with an activation code only; the token is no such code.
            let binding = try await api.send(
                .post, "/v1/devices", bearer: token,
                body: try WireJSON.encoder().encode(
                    RegisterDeviceRequest(
                        activationCode: token, name: "evil", platform: "linux", possessionKey: "AA", biometryKey: nil, proof: "AA")))
            #expect(binding.status >= 400 && binding.status < 500)
            let patch = try await api.send(
                .patch, "/v1/me", bearer: token,
                body: try WireJSON.encoder().encode(SettingsChangeRequest(email: "mallory@example.com", password: "mallory mallory 1")))
            #expect(patch.status == 403)
            #expect(patch.problem?.code == .tokenDelegated)
            let user = try #require(try await api.services.store.user(email: "victim@example.com"))
            #expect(try await api.services.store.devices(userID: user.id).isEmpty)

            // The introspection a bank's resource server makes says whose token it is.
            let introspected = try await api.introspect(token)
            #expect(introspected.active)
            #expect(introspected.tokenUse == "delegated")
            #expect(introspected.clientID == partner.clientID)
            #expect(introspected.consentID == consent.consentId)
            #expect(introspected.op == .settingsChange)
        }
    }

    @Test("a beneficiary_add consent is bound to the payee it names and adds that one beneficiary once")
    func beneficiaryConsentBound() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, tokens) = try await partnerSignIn(api, email: "ben@example.com", phone: "+33612345702")
            let access = try #require(tokens["access_token"] as? String)
            let (consent, sms) = try await approvedConsent(
                api, partner, accessToken: access, phone: "+33612345702",
                CreateConsentRequest(
                    operation: .beneficiaryAdd, beneficiary: Self.mallory, consentRedirectUrl: PartnerFixture.consentRedirect))
            #expect(sms.contains("add Mallory Ltd (FR76 3000 6000 0112 3456 7890 189) as a trusted beneficiary"))
            let token = try #require(consent.accessToken)
            let introspected = try await api.introspect(token)
            #expect(introspected.op == .beneficiaryAdd)
            #expect(introspected.txn == Transaction.Payee(name: "Mallory Ltd", iban: "FR7630006000011234567890189").digest)

            // Another payee is refused; a settings change is refused; the named one is added, once.
            let other = try await api.send(
                .post, "/v1/me/beneficiaries", bearer: token,
                body: try WireJSON.encoder().encode(AddBeneficiaryRequest(name: "Mallory Ltd", iban: "DE89370400440532013000")))
            #expect(other.status == 403)
            let patch = try await api.send(
                .patch, "/v1/me", bearer: token, body: try WireJSON.encoder().encode(SettingsChangeRequest(email: "m@example.com")))
            #expect(patch.problem?.code == .tokenDelegated)
            let added = try await api.send(
                .post, "/v1/me/beneficiaries", bearer: token,
                body: try WireJSON.encoder().encode(AddBeneficiaryRequest(name: "Mallory Ltd", iban: "FR7630006000011234567890189")))
            #expect(added.status == 201)
            let again = try await api.send(
                .post, "/v1/me/beneficiaries", bearer: token,
                body: try WireJSON.encoder().encode(AddBeneficiaryRequest(name: "Mallory Ltd", iban: "FR7630006000011234567890189")))
            #expect(again.status == 401)
            // The partner's sign-in token does not list them.
            #expect(try await api.send(.get, "/v1/me/beneficiaries", bearer: access).problem?.code == .tokenDelegated)
        }
    }

    @Test("a partner's sign-in token reaches no route of the user's own: me, devices, passkeys, beneficiaries, a device's removal")
    func signInTokenStaysOutOfFirstParty() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("scope@example.com", phone: "+33612345703")
            let (verifier, challenge) = PartnerFixture.pkce()
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: challenge, scope: "openid"))
            #expect(start.status == 200)
            try await browser.submit(start, action: "/signin/email", ["email": "scope@example.com"])
            var page = try await browser.get("/signin")
            try await browser.submit(page, action: "/signin/proof", ["method": "password", "credential": PartnerFixture.password])
            page = try await browser.get("/signin")
            try await browser.submit(page, action: "/signin/send", ["method": "sms_otp"])
            page = try await browser.get("/signin")
            let done = try await browser.submit(
                page, action: "/signin/proof", ["method": "sms_otp", "credential": try api.lastCode(sentTo: "+33612345703")])
            let location = try #require(done.headers[.location])
            let code = try #require(PageBrowser.query(of: location)["code"])
            let tokens = try await partner.exchange(code: code, verifier: verifier).json
            let access = try #require(tokens["access_token"] as? String)
            #expect(try jwtClaims(access)["scope"] as? String == "openid")

            // userinfo within the scope: no e-mail without `email`.
            let info = try await api.send(.get, "/oauth2/userinfo", bearer: access)
            #expect(info.status == 200)
            #expect(info.json["email"] == nil)
            #expect(info.json["sub"] as? String != nil)
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/me"), (.get, "/v1/devices"), (.get, "/v1/passkeys"), (.get, "/v1/me/beneficiaries"),
                (.get, "/v1/me/recovery-sheet"),
                (.delete, "/v1/devices/dev_0123456789abcdef0123456789abcdef"),
            ] {
                let answer = try await api.send(method, path, bearer: access)
                #expect(answer.status == 403, "\(path)")
                #expect(answer.problem?.code == .tokenDelegated, "\(path)")
            }
            // Without `consents` it creates no consent, and a first-party token reads no userinfo.
            let consent = try await partner.createConsent(
                CreateConsentRequest(operation: .settingsChange, description: "x", consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: access)
            #expect(consent.problem?.code == .tokenScopeMissing)
        }
    }

    @Test("an operator signed in to a partner gives it no admin power")
    func operatorTokenNoAdmin() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, tokens) = try await partnerSignIn(api, email: "operator@example.com", phone: "+33612345704")
            let user = try #require(try await api.services.store.user(email: "operator@example.com"))
            #expect(try await api.send(.put, "/admin/v1/users/\(user.id)/roles", bearer: TestServer.adminKey,
                body: try WireJSON.encoder().encode(SetRolesRequest(roles: ["support"]))).status == 200)
            // A fresh partner sign-in of the operator, now that the roles are set.
            let (verifier, challenge) = PartnerFixture.pkce("b")
            let query = try await partner.signIn(PageBrowser(api: api), email: "operator@example.com", phone: "+33612345704", challenge: challenge)
            let code = try #require(query["code"])
            let access = try #require(try await partner.exchange(code: code, verifier: verifier).json["access_token"] as? String)
            _ = tokens
            let read = try await api.send(.get, "/admin/v1/users/\(user.id)", bearer: access)
            #expect(read.status == 403)
            #expect(read.problem?.code == .tokenDelegated)
            let unblock = try await api.send(.post, "/admin/v1/users/\(user.id)/unblock", bearer: access)
            #expect(unblock.status == 403)
        }
    }

    @Test("a partner holding the user's token opens no exemption")
    func noExemptionForPartner() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.risk.exemptLowValue = true
        }.run { api in
            let (_, tokens) = try await partnerSignIn(api, email: "low@example.com", phone: "+33612345705")
            let access = try #require(tokens["access_token"] as? String)
            let request = CreateChallengeRequest(
                operation: .payment, user: UserReference(email: "low@example.com"),
                transaction: Transaction(amount: "29.00", currency: "EUR", payee: .init(name: "Mallory Ltd", iban: "FR7630006000011234567890189")))
            let answer = try await api.send(.post, "/v1/challenges", bearer: access, body: try WireJSON.encoder().encode(request))
            #expect(answer.status == 403)
            #expect(answer.problem?.code == .tokenDelegated)
            let exempted = try await api.services.store.auditEntries(after: 0, limit: 1_000)
                .filter { $0.draft.event == "challenge.completed" && $0.draft.outcome == "exempt" }
            #expect(exempted.isEmpty)
        }
    }

    @Test("a partner's refresh token is refused on the first-party refresh without being burnt; a removed client's tokens all end")
    func refreshAndRemoval() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, tokens) = try await partnerSignIn(api, email: "refresh@example.com", phone: "+33612345706")
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            let firstParty = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: refresh))
            #expect(firstParty.status == 403)
            #expect(firstParty.problem?.code == .tokenDelegated)
            // Still the partner's: its own refresh works, with its client's authentication only.
            let wrongSecret = try await partner.token(["grant_type": "refresh_token", "refresh_token": refresh], secret: "wrong")
            #expect(wrongSecret.status == 401)
            let refreshed = try await partner.token(["grant_type": "refresh_token", "refresh_token": refresh])
            #expect(refreshed.status == 200)
            let newAccess = try #require(refreshed.json["access_token"] as? String)
            let newRefresh = try #require(refreshed.json["refresh_token"] as? String)
            #expect(try jwtClaims(newAccess)["client_id"] as? String == partner.clientID)
            _ = access

            #expect(try await api.send(.delete, "/admin/v1/clients/\(partner.clientID)", bearer: TestServer.adminKey).status == 200)
            #expect(try await api.introspect(newAccess).active == false)
            #expect(try await api.send(.get, "/oauth2/userinfo", bearer: newAccess).status == 401)
            let afterRemoval = try await partner.token(["grant_type": "refresh_token", "refresh_token": newRefresh])
            #expect(afterRemoval.status == 401)
        }
    }

    @Test("a partner may not ask for what is never grantable: a device, a beneficiary or account access on the phone")
    func closedListOfOperations() async throws {
        try await TestServer(Self.configure).run { api in
            let (partner, _) = try await partnerSignIn(api, email: "closed@example.com", phone: "+33612345707")
            let basic = "Basic " + Data("\(partner.clientID):\(partner.clientSecret ?? "")".utf8).base64EncodedString()
            for kind in ["device_activation", "beneficiary_add", "account_info"] {
                let response = try await api.client.execute(
                    uri: "/v1/operations", method: .post, headers: [.contentType: "application/json", .authorization: basic],
                    body: ByteBuffer(string: #"{"user":{"email":"closed@example.com"},"operation":"\#(kind)"}"#))
                #expect(response.status == .forbidden, "\(kind)")
                let problem = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
                #expect(problem.code == .operationNotGrantable, "\(kind)")
            }
        }
    }

    @Test("a partner's settings_change operation approved on the phone, and a CIBA sign-in, give tokens the user's own API refuses")
    func operationAndCIBATokensStayTheirs() async throws {
        try await TestServer(Self.configure).run { api in
            let (shop, phone, userID) = try await CIBATests.setUp(api)
            // The partner's own operation, described as something harmless.
            let basic = "Basic " + Data("\(shop.clientID):\(shop.clientSecret ?? "")".utf8).base64EncodedString()
            let created = try await api.client.execute(
                uri: "/v1/operations", method: .post, headers: [.contentType: "application/json", .authorization: basic],
                body: ByteBuffer(string: #"{"user":{"userId":"\#(userID)"},"operation":"settings_change","bindingMessage":"Confirm your newsletter choice"}"#))
            #expect(created.status == .created)
            let operationID = try WireJSON.decoder().decode(OperationResponse.self, from: Data(buffer: created.body)).operationId
            // The push names the partner and the request.
            let push = try #require(try api.services.outbox?.messages().last { $0.channel == .push })
            #expect(push.text == "Shop: Approve: Confirm your newsletter choice?")
            let shown = try #require(try await phone.pending().first { $0.operationId == operationID })
            #expect(try await phone.approve(shown).status == 200)
            let read = try await api.client.execute(
                uri: "/v1/operations/\(operationID)", method: .get, headers: [.authorization: basic], body: nil)
            let token = try #require(try WireJSON.decoder().decode(OperationResponse.self, from: Data(buffer: read.body)).accessToken)
            #expect(try jwtClaims(token)["operation_id"] as? String == operationID)
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/v1/activations", nil as Data?),
                (.patch, "/v1/me", try WireJSON.encoder().encode(SettingsChangeRequest(email: "mallory@example.com"))),
                // A partner's settings_change token issues no recovery sheet: a sheet binds devices.
                (.post, "/v1/me/recovery-sheet", nil),
            ] {
                let answer = try await api.send(method, path, bearer: token, body: body)
                #expect(answer.problem?.code == .tokenDelegated, "\(path)")
            }

            // CIBA: the partner's, with the scope it asked for.
            api.clock.advance(by: 30)
            let started = try await CIBATests.authorize(shop, ["scope": "openid email", "login_hint": userID, "binding_message": "Sign in to Shop"])
            let requestID = try #require(started.json["auth_req_id"] as? String)
            let login = try #require(try await phone.pending().first { $0.operation == .login })
            #expect(try await phone.approve(login).status == 200)
            api.clock.advance(by: 5)
            let granted = try await CIBATests.poll(shop, requestID)
            let access = try #require(granted.json["access_token"] as? String)
            #expect(try jwtClaims(access)["scope"] as? String == "openid email")
            #expect(try await api.send(.get, "/v1/me", bearer: access).problem?.code == .tokenDelegated)
            #expect(try await api.send(.get, "/oauth2/userinfo", bearer: access).json["email"] as? String == "alice@example.com")
        }
    }

    @Test("OpenID request parameters: prompt=none, max_age and acr_values as the spec says")
    func openIDParameters() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let (_, challenge) = PartnerFixture.pkce()
            let base = partner.authorizePath(challenge: challenge)
            func redirectError(_ extra: String) async throws -> [String: String] {
                let answer = try await PageBrowser(api: api).get(base + extra)
                #expect(answer.status == 303, "\(extra)")
                return PageBrowser.query(of: try #require(answer.headers[.location]))
            }
            #expect(try await redirectError("&prompt=none")["error"] == "login_required")
            #expect(try await redirectError("&prompt=none%20login")["error"] == "invalid_request")
            #expect(try await redirectError("&prompt=bogus")["error"] == "invalid_request")
            #expect(try await redirectError("&max_age=-1")["error"] == "invalid_request")
            #expect(try await redirectError("&acr_values=urn%3Aother")["error"] == "unmet_authentication_requirements")
            #expect(try await PageBrowser(api: api).get(base + "&prompt=login&max_age=0&acr_values=psd2.sca").status == 200)
            let discovery = try await api.send(.get, "/.well-known/openid-configuration")
            #expect(discovery.json["acr_values_supported"] as? [String] == ["psd2.sca", "single-factor"])
        }
    }

    @Test("acr_values=psd2.sca is refused, not downgraded, when the sign-in earns one category")
    func acrNotDowngraded() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.policies[.login] = OperationPolicy(requiredCategories: 1, methods: [.password, .smsOTP])
        }.run { api in
            let partner = try await PartnerFixture.make(api)
            _ = try await api.createUser("one@example.com", phone: "+33612345708")
            let (_, challenge) = PartnerFixture.pkce()
            let browser = PageBrowser(api: api)
            let start = try await browser.get(partner.authorizePath(challenge: challenge) + "&acr_values=psd2.sca")
            try await browser.submit(start, action: "/signin/email", ["email": "one@example.com"])
            let page = try await browser.get("/signin")
            let done = try await browser.submit(page, action: "/signin/proof", ["method": "password", "credential": PartnerFixture.password])
            #expect(done.status == 303)
            let query = PageBrowser.query(of: try #require(done.headers[.location]))
            #expect(query["error"] == "unmet_authentication_requirements")
            #expect(query["code"] == nil)
        }
    }

    @Test("failed client authentications are counted per client: throttled, audited and counted in a metric")
    func clientAuthenticationThrottled() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let fields = ["grant_type": "refresh_token", "refresh_token": "x"]
            for _ in 1...LockoutState.clientFailureLimit {
                #expect(try await partner.token(fields, basic: true, secret: "wrong").status == 401)
            }
            // Throttled now: even the right secret is refused until the minute is over.
            let throttled = try await partner.token(fields, basic: true)
            #expect(throttled.status == 429)
            #expect(throttled.json["error"] as? String == "slow_down")
            #expect(throttled.headers[.retryAfter] == "60")
            api.clock.advance(by: 61)
            #expect(try await partner.token(fields, basic: true).status == 400)  // authenticated; the grant is bad
            let trail = try await api.services.store.auditEntries(after: 0, limit: 1_000)
                .filter { $0.draft.event == "partner.client_authentication_failed" }
            #expect(trail.count == LockoutState.clientFailureLimit + 1)
            #expect(trail.allSatisfy { $0.draft.details["clientId"] == partner.clientID })
            #expect(trail.last?.draft.outcome == "throttled")
            let metrics = try await api.send(.get, "/metrics")
            let text = String(decoding: metrics.body, as: UTF8.self)
            #expect(text.contains(#"sca_client_authentication_failures_total{outcome="failed"} 10"#))
            #expect(text.contains(#"sca_client_authentication_failures_total{outcome="throttled"} 1"#))
        }
    }

    @Test("a partner's secret guessed at POST /v1/operations counts in the same per-client throttle as at the token endpoint")
    func operationsEndpointShareTheThrottle() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            func createOperation(secret: String) async throws -> APIResponse {
                let basic = "Basic " + Data("\(partner.clientID):\(secret)".utf8).base64EncodedString()
                let response = try await api.client.execute(
                    uri: "/v1/operations", method: .post, headers: [.contentType: "application/json", .authorization: basic],
                    body: ByteBuffer(string: #"{"user":{"email":"nobody@example.com"},"operation":"settings_change"}"#))
                return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
            }
            // Guesses on the operations endpoint only: before, none of them was counted there.
            for _ in 1...LockoutState.clientFailureLimit {
                #expect(try await createOperation(secret: "wrong").status == 401)
            }
            let throttled = try await createOperation(secret: try #require(partner.clientSecret))
            #expect(throttled.status == 429)
            #expect(throttled.problem?.code == .rateLimited)
            #expect(throttled.headers[.retryAfter] == "60")
            // And the token endpoint refuses the client too: one throttle per client.
            #expect(try await partner.token(["grant_type": "refresh_token", "refresh_token": "x"], basic: true).status == 429)
            let trail = try await api.services.store.auditEntries(after: 0, limit: 1_000)
                .filter { $0.draft.event == "partner.client_authentication_failed" }
            #expect(trail.count == LockoutState.clientFailureLimit + 2)
        }
    }

    @Test(
        "a client removed on one PostgreSQL instance is refused on the other at once",
        .enabled(if: ServerPair.databaseURL != nil, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func removalAcrossInstances() async throws {
        try await ServerPair.withSchema { databaseURL, _ in
            let serverKey = ServerPair.newServerKey()
            // Two instances: each its own pool on the one schema, its own router.
            let first = try await PostgresStore.connect(url: databaseURL, logger: Logger(label: "sca-server"))
            let second = try await PostgresStore.connect(url: databaseURL, logger: Logger(label: "sca-server"))
            try await ServerDatabase(store: first, services: [first]).withRunning { storeA in
                try await ServerDatabase(store: second, services: [second]).withRunning { storeB in
                    let a = try await TestServer(store: storeA) {
                        Self.configure(&$0)
                        $0.serverKey = serverKey
                    }
                    let b = try await TestServer(store: storeB) {
                        Self.configure(&$0)
                        $0.serverKey = serverKey
                    }
                    try await a.run { apiA in
                        try await b.run { apiB in
                            let partner = try await PartnerFixture.make(apiA)
                            let tokens = try await partner.tokens(email: "twice@example.com", phone: "+33612345709")
                            let access = try #require(tokens["access_token"] as? String)
                            let refresh = try #require(tokens["refresh_token"] as? String)
                            #expect(try await apiB.send(.get, "/oauth2/userinfo", bearer: access).status == 200)
                            // The partner's token is refused by B's first-party API too.
                            #expect(try await apiB.send(.get, "/v1/me", bearer: access).problem?.code == .tokenDelegated)

                            #expect(try await apiA.send(.delete, "/admin/v1/clients/\(partner.clientID)", bearer: TestServer.adminKey).status == 200)
                            #expect(try await apiB.send(.get, "/oauth2/userinfo", bearer: access).status == 401)
                            #expect(try await apiB.introspect(access).active == false)
                            var onB = partner
                            onB = PartnerFixture(api: apiB, clientID: partner.clientID, clientSecret: partner.clientSecret)
                            #expect(try await onB.token(["grant_type": "refresh_token", "refresh_token": refresh]).status == 401)
                        }
                    }
                }
            }
        }
    }
}
