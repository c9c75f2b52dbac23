import Foundation
import HTTPTypes
import JWTKit
import SCACore
import Testing

/// Payments and account access asked as `authorization_details` (RFC 9396): pushed, shown on
/// the sign-in pages as the consent page shows a payment, bound into the proofs, carried by the
/// token, and consumed once by the resource server for exactly that payment.
@Suite("Authorization details: payment_initiation and account_information")
struct AuthorizationDetailsTests {
    static let phone = "+33612340611"
    static let payment = """
        [{"type":"payment_initiation","instructedAmount":{"amount":"250.00","currency":"EUR"},\
        "creditorName":"Acme Supplies","creditorAccount":{"iban":"fr76 3000 6000 0112 3456 7890 189"},\
        "remittanceInformationUnstructured":"Invoice 42"}]
        """
    /// The payment as the resource server executes it: the normalised IBAN.
    static let transaction = Transaction(
        amount: "250.00", currency: "EUR", payee: .init(name: "Acme Supplies", iban: "FR7630006000011234567890189"),
        reference: "Invoice 42")

    static func client(_ api: APIClient, types: [String] = AuthorizationDetail.knownTypes) async throws -> KeyClient {
        try await KeyClient.make(api, authorizationDetailsTypes: types)
    }

    /// PAR with `details`, the pages with password then SMS, and the code exchanged with DPoP.
    static func approve(
        _ api: APIClient, client: KeyClient, details: String, email: String, scope: String = "openid", key: DPoPKey = DPoPKey(),
        check page: (APIResponse) throws -> Void = { _ in }
    ) async throws -> APIResponse {
        let (verifier, challenge) = PartnerFixture.pkce("r")
        let uri = try PushedAuthorizationTests.requestURI(
            try await client.push(challenge: challenge, scope: scope, extra: ["authorization_details": details]))
        let browser = PageBrowser(api: api)
        let start = try await browser.get(client.authorizePath(requestURI: uri))
        #expect(start.status == 200)
        try page(start)
        try await browser.submit(start, action: "/signin/email", ["email": email])
        let factors = try await browser.get("/signin")
        try page(factors)
        try await browser.submit(factors, action: "/signin/proof", ["method": "password", "credential": PartnerFixture.password])
        try await browser.submit(try await browser.get("/signin"), action: "/signin/send", ["method": "sms_otp"])
        let done = try await browser.submit(
            try await browser.get("/signin"), action: "/signin/proof",
            ["method": "sms_otp", "credential": try api.lastCode(sentTo: phone)])
        #expect(done.status == 303)
        let query = PageBrowser.query(of: try #require(done.headers[.location]))
        let code = try #require(query["code"], "\(query)")
        return try await client.token(
            ["grant_type": "authorization_code", "code": code, "redirect_uri": KeyClient.redirectURI, "code_verifier": verifier],
            dpop: key)
    }

    @Test("a payment is shown, bound into the SMS code and the token, and consumed once for exactly that payment")
    func payment() async throws {
        try await TestServer().run { api in
            let client = try await Self.client(api)
            _ = try await api.createUser("rar@example.com", phone: Self.phone)
            let tokens = try await Self.approve(api, client: client, details: Self.payment, email: "rar@example.com") { page in
                // The payment as the consent page shows one: amount, payee, IBAN in groups, reference.
                #expect(page.text.contains("Acme Supplies"))
                #expect(page.text.contains("FR76 3000 6000 0112 3456 7890 189"))
                #expect(page.text.contains("Invoice 42"))
                #expect(page.text.contains("250.00"))
                #expect(!page.text.contains("/signin/passkey"), "no passkey-first sign-in for a payment")
            }
            #expect(tokens.status == 200, "\(tokens.text)")
            // The SMS code names the amount and the payee: its proof is bound to them.
            let message = try #require(try api.services.outbox?.messages().last { $0.to == Self.phone })
            #expect(message.text.contains("Acme Supplies") && message.text.contains("250.00"), "\(message.text)")

            // The token answer and the token itself carry what was approved, normalised.
            let answered = try #require(tokens.json["authorization_details"] as? [[String: Any]])
            #expect(answered.count == 1 && answered[0]["type"] as? String == "payment_initiation")
            #expect((answered[0]["creditorAccount"] as? [String: String])?["iban"] == "FR7630006000011234567890189")
            #expect(tokens.json["refresh_token"] == nil, "a payment's token is for that payment only")
            let accessToken = try #require(tokens.json["access_token"] as? String)
            let introspected = try await client.post("/oauth2/introspect", ["token": accessToken])
            #expect(introspected.json["active"] as? Bool == true)
            let details = try #require(introspected.json["authorization_details"] as? [[String: Any]])
            #expect((details[0]["instructedAmount"] as? [String: String])?["amount"] == "250.00")
            #expect(introspected.json["token_type"] as? String == "DPoP")

            // The resource server consumes it for that payment only, once.
            var otherAmount = Self.transaction
            otherAmount.amount = "250.01"
            var otherPayee = Self.transaction
            otherPayee.payee.iban = "DE89370400440532013000"
            for tampered in [otherAmount, otherPayee] {
                let refused = try await api.introspect(accessToken, operation: .payment, transaction: tampered, consume: true)
                #expect(!refused.active)
            }
            let consumed = try await api.introspect(accessToken, operation: .payment, transaction: Self.transaction, consume: true)
            #expect(consumed.active && consumed.op == .payment)
            #expect(consumed.authorizationDetails?.first?.transaction == Self.transaction)
            let again = try await api.introspect(accessToken, operation: .payment, transaction: Self.transaction, consume: true)
            #expect(!again.active, "a second consumption is refused")
        }
    }

    @Test("a payment above the high-value bar that the page cannot prove says so, and opens no challenge")
    func highValue() async throws {
        try await TestServer().run { api in
            let client = try await Self.client(api)
            _ = try await api.createUser("big@example.com", phone: Self.phone)
            let (_, challenge) = PartnerFixture.pkce("h")
            let uri = try PushedAuthorizationTests.requestURI(
                try await client.push(
                    challenge: challenge, extra: ["authorization_details": Self.payment.replacingOccurrences(of: "250.00", with: "5000.00")]))
            let browser = PageBrowser(api: api)
            let start = try await browser.get(client.authorizePath(requestURI: uri))
            try await browser.submit(start, action: "/signin/email", ["email": "big@example.com"])
            let page = try await browser.get("/signin")
            #expect(page.text.contains("This payment needs more proof of identity than this page can take"))
            #expect(!page.text.contains("/signin/proof"))
        }
    }

    @Test("a payment request offers no sign-up, even where sign-up is on: a new account cannot approve it")
    func noSignUp() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let client = try await Self.client(api)
            let (_, challenge) = PartnerFixture.pkce("s")
            let uri = try PushedAuthorizationTests.requestURI(
                try await client.push(challenge: challenge, extra: ["authorization_details": Self.payment]))
            let browser = PageBrowser(api: api)
            let start = try await browser.get(client.authorizePath(requestURI: uri))
            #expect(start.status == 200)
            #expect(!start.text.contains("/signin/signup"))
            // The sign-up page itself, opened by hand, is not offered either.
            #expect(try await browser.get("/signin/signup").status == 404)
        }
    }

    @Test("authorization_details that break a rule, or a type the client is not registered for, are refused at PAR")
    func refusals() async throws {
        try await TestServer().run { api in
            let client = try await Self.client(api)
            let paymentsOnly = try await KeyClient.make(api, kid: "payments-only", authorizationDetailsTypes: ["payment_initiation"])
            let (_, challenge) = PartnerFixture.pkce()
            let entry = #"{"type":"payment_initiation","instructedAmount":{"amount":"%@","currency":"EUR"},"creditorName":"Acme","creditorAccount":{"iban":"%@"}%@}"#
            func payment(amount: String = "10.00", iban: String = "FR7630006000011234567890189", extra: String = "") -> String {
                "[" + String(format: entry, amount, iban, extra) + "]"
            }
            let until = ISO8601DateFormatter().string(from: api.clock.now().addingTimeInterval(181 * 86_400))
            for (sent, by, why) in [
                (payment(iban: "FR7630006000011234567890188"), client, "an IBAN that fails its checksum"),
                (payment(amount: "10.5"), client, "an amount without the currency's two decimals"),
                (payment(amount: "-10.00"), client, "a negative amount"),
                (payment(extra: #","debtorAccount":{"iban":"DE89370400440532013000"}"#), client, "a member the user would not see"),
                ("[" + String(format: entry, "1.00", "FR7630006000011234567890189", "") + "," + String(format: entry, "2.00", "FR7630006000011234567890189", "") + "]", client, "two payments"),
                (#"[{"type":"payment_initiation","instructedAmount":{"amount":"10.00","currency":"EUR"},"creditorName":"Acme"}]"#, client, "no creditor account"),
                (#"[{"type":"money_transfer"}]"#, client, "an unknown type"),
                (#"{"type":"payment_initiation"}"#, client, "not an array"),
                (#"[{"type":"account_information","accounts":[{"iban":"FR7630006000011234567890189"}],"access":["balances"],"validUntil":"\#(until)"}]"#, client, "access beyond 180 days"),
                (#"[{"type":"account_information","accounts":[{"iban":"FR7630006000011234567890189"}],"access":["balances"],"validUntil":"2027-01-01T00:00:00Z"}]"#, paymentsOnly, "a type the client is not registered for"),
            ] {
                let answer = try await by.push(challenge: challenge, extra: ["authorization_details": sent])
                #expect(answer.status == 400, "\(why)")
                #expect(answer.json["error"] as? String == "invalid_authorization_details", "\(why): \(answer.text)")
            }
            // A client registered for none asks by scope only.
            let plain = try await KeyClient.make(api, kid: "plain")
            let refused = try await plain.push(challenge: challenge, extra: ["authorization_details": payment()])
            #expect(refused.json["error"] as? String == "invalid_authorization_details")
            // Registration names only known types.
            let unknown = try await api.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(name: "X", redirectUris: [KeyClient.redirectURI], authorizationDetailsTypes: ["wire"]),
                admin: true)
            #expect(unknown.status == 400)
            let discovery = try await api.send(.get, "/.well-known/openid-configuration").json
            #expect(discovery["authorization_details_types_supported"] as? [String] == ["payment_initiation", "account_information"])
        }
    }

    @Test("account information: shown with its accounts and end, and no token of it, refreshed or not, outlives validUntil")
    func accountInformation() async throws {
        try await TestServer().run { api in
            let client = try await Self.client(api)
            _ = try await api.createUser("ais@example.com", phone: Self.phone)
            let start = api.clock.now()
            let until = ISO8601DateFormatter().string(from: start.addingTimeInterval(240))
            let details = #"[{"type":"account_information","accounts":[{"iban":"DE89370400440532013000"}],"access":["balances","transactions"],"validUntil":"\#(until)"}]"#
            let key = DPoPKey()
            let tokens = try await Self.approve(
                api, client: client, details: details, email: "ais@example.com", scope: "openid offline", key: key
            ) { page in
                #expect(page.text.contains("DE89 3704 0044 0532 0130 00"))
                #expect(page.text.contains("Balances, Transactions"))
            }
            #expect(tokens.status == 200, "\(tokens.text)")
            let accessToken = try #require(tokens.json["access_token"] as? String)
            let claims = try await api.introspect(accessToken)
            #expect(claims.op == .accountInfo)
            #expect(claims.exp.map { TimeInterval($0) <= start.addingTimeInterval(240).timeIntervalSince1970 } == true)
            let refreshToken = try #require(tokens.json["refresh_token"] as? String)

            // Within the access a refresh works, and carries the details on.
            api.clock.advance(by: 120)
            let refreshed = try await client.token(["grant_type": "refresh_token", "refresh_token": refreshToken], dpop: key)
            #expect(refreshed.status == 200, "\(refreshed.text)")
            #expect((refreshed.json["authorization_details"] as? [[String: Any]])?.first?["type"] as? String == "account_information")
            let next = try #require(refreshed.json["refresh_token"] as? String)
            // After validUntil (the session still within its idle time), nothing more.
            api.clock.advance(by: 150)
            let late = try await client.token(["grant_type": "refresh_token", "refresh_token": next], dpop: key)
            #expect(late.status == 400 && late.json["error"] as? String == "invalid_grant", "\(late.text)")
        }
    }
}
