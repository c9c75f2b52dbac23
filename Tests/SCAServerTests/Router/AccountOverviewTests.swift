import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAStorage
import Testing

/// The user's own account in JSON (`/v1/me/overview`, `/v1/me/sessions`, `/v1/me/partners`,
/// `/v1/me/consents`): what it lists, the changes that take power away, and the refusals: a
/// partner's token reaches none of it, another user's ids are not found, bad input changes
/// nothing.
@Suite("The account overview and its changes")
struct AccountOverviewTests {
    static let password = "correct horse battery"

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.trustedProxyHeader = "X-Forwarded-For"
        // Several sign-ins of one user by SMS within minutes: more codes to one number than the
        // default budget lets through, which is not what these tests are about.
        configuration.rateLimits.sendsPerDestination = [RateWindow(count: 50, seconds: 600)]
        configuration.rateLimits.sendsPerUser = [RateWindow(count: 50, seconds: 600)]
    }

    /// A request from `address` (through the trusted proxy header) with a bearer token.
    static func call(
        _ api: APIClient, _ method: HTTPRequest.Method, _ path: String, bearer: String? = nil, body: Data? = nil,
        from address: String = "203.0.113.7"
    ) async throws -> APIResponse {
        var headers: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: address]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let response = try await api.client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    /// Password then an SMS code on a new challenge of `operation`, from `address`.
    static func authenticate(
        _ api: APIClient, email: String, phone: String, _ operation: OperationKind = .login, transaction: Transaction? = nil,
        from address: String = "203.0.113.7"
    ) async throws -> ProofResponse {
        let created = try await call(
            api, .post, "/v1/challenges",
            body: try WireJSON.encoder().encode(
                CreateChallengeRequest(operation: operation, user: UserReference(email: email), transaction: transaction)),
            from: address)
        #expect(created.status == 201, "\(created.problem?.detail ?? "")")
        let challenge = try created.decode(ChallengeResponse.self)
        let first = try await call(
            api, .post, "/v1/challenges/\(challenge.challengeId)/proofs",
            body: try WireJSON.encoder().encode(ProofRequest(method: .password, credential: password)), from: address)
        #expect(first.status == 200)
        let sent = try await call(
            api, .post, "/v1/challenges/\(challenge.challengeId)/otp",
            body: try WireJSON.encoder().encode(SendCodeRequest(method: .smsOTP)), from: address)
        #expect(sent.status == 202, "\(sent.problem?.detail ?? "")")
        let done = try await call(
            api, .post, "/v1/challenges/\(challenge.challengeId)/proofs",
            body: try WireJSON.encoder().encode(ProofRequest(method: .smsOTP, credential: try api.lastCode(sentTo: phone))),
            from: address)
        #expect(done.status == 200)
        return try done.decode(ProofResponse.self)
    }

    static func overview(_ api: APIClient, _ token: String) async throws -> AccountOverviewResponse {
        let response = try await api.send(.get, "/v1/me/overview", bearer: token)
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return try response.decode(AccountOverviewResponse.self)
    }

    @Test("the overview lists sessions with the caller's marked, partners with their scopes, and activity shaped for the user")
    func overviewLists() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            // The partner's sign-in creates the user (password and phone) and a partner session.
            _ = try await partner.tokens(email: "owner@example.com", phone: "+33612345801")
            let phone = try await Self.authenticate(api, email: "owner@example.com", phone: "+33612345801", from: "198.51.100.23")
            let here = try await Self.authenticate(
                api, email: "owner@example.com", phone: "+33612345801", from: "2001:db8:abcd:12::1")
            let token = try #require(here.accessToken)

            // A failed attempt: a wrong password and a right SMS code, deferred verdict.
            let failing = try await api.startChallenge(email: "owner@example.com")
            try await api.prove(failing.challengeId, .password, "not the password")
            _ = try await api.sendCode(failing.challengeId, .smsOTP)
            try await api.prove(failing.challengeId, .smsOTP, try api.lastCode(sentTo: "+33612345801"))

            // A payment approved.
            _ = try await Self.authenticate(
                api, email: "owner@example.com", phone: "+33612345801", .payment,
                transaction: Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "Alice Martin", iban: "FR7630006000011234567890189")))

            let overview = try await Self.overview(api, token)
            #expect(overview.email == "owner@example.com")
            #expect(overview.phone == "+33612345801")
            #expect(overview.sessions.count == 2)
            #expect(overview.sessions.filter(\.current).map(\.sessionId) == [try jwtClaims(token)["sid"] as? String])
            let phoneSID: String? = try jwtClaims(try #require(phone.accessToken))["sid"] as? String
            #expect(overview.sessions.map(\.sessionId).contains(try #require(phoneSID)))
            #expect(overview.partners.map(\.clientId) == [partner.clientID])
            #expect(overview.partners.first?.clientName == "Shop")
            #expect(overview.partners.first?.scopes.contains("openid") == true)
            #expect(overview.recoverySheet == nil)

            let kinds = overview.activity.map(\.kind)
            #expect(kinds.first == .paymentApproved)
            let payment = try #require(overview.activity.first)
            #expect(payment.amount == "125.00")
            #expect(payment.currency == "EUR")
            #expect(payment.payee == "Alice Martin")
            #expect(payment.network == "203.0.113.0/24")
            #expect(kinds.filter { $0 == .failedAttempt }.count == 1)
            let signInNetworks = overview.activity.filter { $0.kind == .signIn }.compactMap(\.network)
            #expect(signInNetworks.contains("2001:db8:abcd::/48"))
            #expect(signInNetworks.contains("198.51.100.0/24"))
            // Never which element: the JSON of the lines names no method.
            let raw = String(decoding: try await api.send(.get, "/v1/me/overview", bearer: token).body, as: UTF8.self)
            for secret in ["password", "sms_otp", "198.51.100.23", "2001:db8:abcd:12::1"] {
                #expect(!raw.contains(secret))
            }
        }
    }

    @Test("a partner's delegated token reaches no account route, and changes nothing")
    func partnerTokenRefusedEverywhere() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "shared@example.com", phone: "+33612345802")
            let delegated = try #require(tokens["access_token"] as? String)
            let own = try #require(try await Self.authenticate(api, email: "shared@example.com", phone: "+33612345802").accessToken)
            let sid = try #require(try jwtClaims(own)["sid"] as? String)
            let partnerSID = try #require(try jwtClaims(delegated)["sid"] as? String)

            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/v1/me/overview"), (.delete, "/v1/me/sessions"), (.delete, "/v1/me/sessions/\(sid)"),
                (.delete, "/v1/me/partners/\(partner.clientID)"), (.delete, "/v1/me/consents/cst_AAAAAAAAAAAAAAAAAAAAAA"),
            ]
            for (method, path) in routes {
                let response = try await api.send(method, path, bearer: delegated)
                #expect(response.status == 403, "\(method) \(path)")
                #expect(response.problem?.code == .tokenDelegated, "\(method) \(path)")
            }
            let overview = try await Self.overview(api, own)
            #expect(overview.sessions.map(\.sessionId) == [sid])
            #expect(overview.partners.map(\.clientId) == [partner.clientID])
            #expect(try await api.services.store.session(id: partnerSID)?.revokedAt == nil)
        }
    }

    @Test("another user's session, partner and consent are not found, bad ids are refused, and nothing changes")
    func otherUsersIdsNotFound() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let aliceTokens = try await partner.tokens(email: "alice@example.com", phone: "+33612345803")
            let aliceAccess = try #require(aliceTokens["access_token"] as? String)
            let alice = try #require(try await Self.authenticate(api, email: "alice@example.com", phone: "+33612345803").accessToken)
            _ = try await api.createUser("bob@example.com", phone: "+33612345804")
            let bob = try #require(try await Self.authenticate(api, email: "bob@example.com", phone: "+33612345804").accessToken)
            let aliceSID = try #require(try jwtClaims(alice)["sid"] as? String)
            let consent = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .payment, transaction: Transaction(amount: "10.00", currency: "EUR", payee: .init(name: "Shop")),
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: aliceAccess
            ).decode(ConsentResponse.self)

            let refusals: [(String, Int, ProblemCode)] = [
                ("/v1/me/sessions/\(aliceSID)", 404, .sessionNotFound),
                ("/v1/me/sessions/not-an-id", 404, .sessionNotFound),
                ("/v1/me/sessions/ses_%20", 404, .sessionNotFound),
                ("/v1/me/partners/\(partner.clientID)", 404, .partnerAccessNotFound),
                ("/v1/me/partners/\(String(repeating: "x", count: 200))", 404, .partnerAccessNotFound),
                ("/v1/me/consents/\(consent.consentId)", 404, .consentNotFound),
                ("/v1/me/consents/cst_", 404, .consentNotFound),
            ]
            for (path, status, code) in refusals {
                let response = try await api.send(.delete, path, bearer: bob)
                #expect(response.status == status, "\(path)")
                #expect(response.problem?.code == code, "\(path)")
            }
            // Without a token: 401, whatever the id.
            #expect(try await api.send(.delete, "/v1/me/sessions/\(aliceSID)", bearer: nil).status == 401)
            #expect(try await api.send(.get, "/v1/me/overview", bearer: nil).status == 401)

            // Alice's session, partner and consent are as they were.
            let overview = try await Self.overview(api, alice)
            #expect(overview.sessions.map(\.sessionId) == [aliceSID])
            #expect(overview.partners.map(\.clientId) == [partner.clientID])
            #expect(overview.consents.map(\.status) == [.created])
            #expect(overview.consents.first?.revocable == true)
            let trail = try await api.services.store.auditEntries(userID: try #require(try await api.services.store.user(email: "bob@example.com")).id, before: nil, limit: 50)
            #expect(!trail.contains { $0.draft.event.hasPrefix("account.") })
        }
    }

    @Test("ending one session, every other, a partner's access and a consent: each ends what it names, audited")
    func endingAndRevoking() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "ender@example.com", phone: "+33612345805")
            let delegated = try #require(tokens["access_token"] as? String)
            let laptop = try #require(try await Self.authenticate(api, email: "ender@example.com", phone: "+33612345805").accessToken)
            let tablet = try #require(try await Self.authenticate(api, email: "ender@example.com", phone: "+33612345805").accessToken)
            let phone = try #require(try await Self.authenticate(api, email: "ender@example.com", phone: "+33612345805").accessToken)
            let tabletSID = try #require(try jwtClaims(tablet)["sid"] as? String)

            // One session: the tablet's token stops working at once.
            let one = try await api.send(.delete, "/v1/me/sessions/\(tabletSID)", bearer: laptop)
            #expect(one.status == 200)
            #expect(try one.decode(SessionsEndedResponse.self).ended == 1)
            #expect(try await api.send(.get, "/v1/me/overview", bearer: tablet).status == 401)
            #expect(try await api.send(.delete, "/v1/me/sessions/\(tabletSID)", bearer: laptop).problem?.code == .sessionNotFound)

            // Every other: the phone's ends, the laptop's stays, the partner's stays.
            let others = try await api.send(.delete, "/v1/me/sessions", bearer: laptop)
            #expect(try others.decode(SessionsEndedResponse.self).ended == 1)
            #expect(try await api.send(.get, "/v1/me/overview", bearer: phone).status == 401)
            #expect(try await api.introspect(delegated).active)
            var overview = try await Self.overview(api, laptop)
            #expect(overview.sessions.map(\.current) == [true])

            // An open consent of the partner is refused when its access is taken back.
            let consent = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .payment, transaction: Transaction(amount: "10.00", currency: "EUR", payee: .init(name: "Shop")),
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: delegated
            ).decode(ConsentResponse.self)
            let revoked = try await api.send(.delete, "/v1/me/partners/\(partner.clientID)", bearer: laptop)
            #expect(revoked.status == 200)
            let what = try revoked.decode(PartnerAccessRevokedResponse.self)
            #expect(what.sessionsEnded == 1)
            #expect(what.consentsRefused == 1)
            #expect(try await api.introspect(delegated).active == false)
            #expect(try await api.services.store.consent(id: consent.consentId)?.status == .customerRefused)
            #expect(try await api.send(.delete, "/v1/me/partners/\(partner.clientID)", bearer: laptop).status == 404)
            // Nothing left of the consent to revoke.
            let closed = try await api.send(.delete, "/v1/me/consents/\(consent.consentId)", bearer: laptop)
            #expect(closed.status == 409)
            #expect(closed.problem?.code == .consentClosed)

            overview = try await Self.overview(api, laptop)
            #expect(overview.partners.isEmpty)
            #expect(overview.consents.first?.revocable == false)
            #expect(overview.activity.prefix(3).map(\.kind) == [.partnerRevoked, .sessionsEnded, .sessionsEnded])
            let user = try #require(try await api.services.store.user(email: "ender@example.com"))
            let trail = try await api.services.store.auditEntries(userID: user.id, before: nil, limit: 100)
            let revokedClients = trail.filter { $0.draft.event == "account.partner_revoked" }.compactMap { $0.draft.details["client"] }
            #expect(revokedClients == [partner.clientID])
            let consentMoves = trail.filter { $0.draft.event == "consent.changed" }.compactMap { $0.draft.details["to"] }
            #expect(consentMoves.contains("CustomerRefused"))
        }
    }

    @Test("revoking an open consent refuses it; the caller's own session can be ended, which signs it out")
    func consentAndOwnSession() async throws {
        try await TestServer(Self.configure).run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "consent@example.com", phone: "+33612345806")
            let delegated = try #require(tokens["access_token"] as? String)
            let own = try #require(try await Self.authenticate(api, email: "consent@example.com", phone: "+33612345806").accessToken)
            let consent = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .payment, transaction: Transaction(amount: "42.00", currency: "EUR", payee: .init(name: "Shop")),
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: delegated
            ).decode(ConsentResponse.self)
            let listed = try #require(try await Self.overview(api, own).consents.first)
            #expect(listed.amount == "42.00")
            #expect(listed.payee == "Shop")
            #expect(listed.clientName == "Shop")

            let revoked = try await api.send(.delete, "/v1/me/consents/\(consent.consentId)", bearer: own)
            #expect(revoked.status == 200)
            #expect(try revoked.decode(AccountConsentResponse.self).status == .customerRefused)
            // The partner's sign-in is not the consent: it stays.
            #expect(try await api.introspect(delegated).active)

            let sid = try #require(try jwtClaims(own)["sid"] as? String)
            #expect(try await api.send(.delete, "/v1/me/sessions/\(sid)", bearer: own).status == 200)
            #expect(try await api.send(.get, "/v1/me/overview", bearer: own).status == 401)
        }
    }

    @Test("the coarse address keeps the network only")
    func coarseAddress() {
        #expect(CoarseAddress.of("203.0.113.7") == "203.0.113.0/24")
        #expect(CoarseAddress.of("::ffff:203.0.113.7") == "203.0.113.0/24")
        #expect(CoarseAddress.of("2001:db8:abcd:12::1") == "2001:db8:abcd::/48")
        #expect(CoarseAddress.of("2001:db8::1") == "2001:db8::/48")
        #expect(CoarseAddress.of("::1") == "::/48")
        #expect(CoarseAddress.of("fe80::1%eth0") == "fe80::/48")
        #expect(CoarseAddress.of("256.1.1.1") == nil)
        #expect(CoarseAddress.of("example.com") == nil)
        #expect(CoarseAddress.of("1:2:3:4:5:6:7:8:9") == nil)
    }
}
