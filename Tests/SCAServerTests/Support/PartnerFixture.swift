import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import Testing

/// A partner client, a user and the steps of the hosted pages, driven over the router like a
/// browser without JavaScript would: GET a page, read its forms, POST them with the cookie.
struct PartnerFixture {
    static let redirectURI = "https://shop.example/callback"
    static let consentRedirect = "https://shop.example/consent-done"
    static let password = "correct horse battery"

    let api: APIClient
    let clientID: String
    let clientSecret: String?
    var redirectURI = PartnerFixture.redirectURI
    var consentRedirect = PartnerFixture.consentRedirect

    /// Registers a confidential client (or a public one).
    static func make(
        _ api: APIClient, publicClient: Bool = false, redirectURI: String = PartnerFixture.redirectURI,
        consentRedirect: String = PartnerFixture.consentRedirect, scopes: [String]? = nil
    ) async throws -> PartnerFixture {
        let response = try await api.post(
            "/admin/v1/clients",
            CreatePartnerClientRequest(
                name: "Shop", redirectUris: [redirectURI, "com.shop.app:/cb"], consentRedirectUris: [consentRedirect],
                scopes: scopes, publicClient: publicClient),
            admin: true)
        #expect(response.status == 201)
        let client = try response.decode(PartnerClientResponse.self)
        return PartnerFixture(
            api: api, clientID: client.clientId, clientSecret: client.clientSecret, redirectURI: redirectURI,
            consentRedirect: consentRedirect)
    }

    /// A PKCE verifier and its S256 challenge.
    static func pkce(_ seed: String = "a") -> (verifier: String, challenge: String) {
        let verifier = String(repeating: seed, count: 50)
        return (verifier, PKCE.challenge(for: verifier))
    }

    func authorizePath(
        challenge: String?, method: String? = "S256", state: String? = "st-123", nonce: String? = "n-456",
        redirectURI: String? = nil, scope: String = "openid offline email consents", clientID: String? = nil
    ) -> String {
        let redirectURI = redirectURI ?? self.redirectURI
        var items: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID ?? self.clientID), ("redirect_uri", redirectURI), ("scope", scope),
        ]
        if let state { items.append(("state", state)) }
        if let nonce { items.append(("nonce", nonce)) }
        if let challenge { items.append(("code_challenge", challenge)) }
        if let method { items.append(("code_challenge_method", method)) }
        return "/oauth2/authorize?" + items.map { "\($0.0)=\(RedirectURIRules.formEncoded($0.1))" }.joined(separator: "&")
    }

    /// The whole sign-in through the pages (password, then an SMS code from the outbox).
    /// - Returns: the query of the redirect to the client.
    func signIn(
        _ browser: PageBrowser, email: String, phone: String, challenge: String, scope: String = "openid offline email consents"
    ) async throws -> [String: String] {
        try await Self.signIn(
            browser, at: authorizePath(challenge: challenge, scope: scope), email: email, phone: phone, redirectURI: redirectURI)
    }

    /// The sign-in pages from `path` (an authorization request) to the redirect to `redirectURI`.
    static func signIn(
        _ browser: PageBrowser, at path: String, email: String, phone: String, redirectURI: String
    ) async throws -> [String: String] {
        let start = try await browser.get(path)
        #expect(start.status == 200)
        try await browser.submit(start, action: "/signin/email", ["email": email])
        let factors = try await browser.get("/signin")
        try await browser.submit(factors, action: "/signin/proof", ["method": "password", "credential": Self.password])
        let afterPassword = try await browser.get("/signin")
        try await browser.submit(afterPassword, action: "/signin/send", ["method": "sms_otp"])
        let withCode = try await browser.get("/signin")
        let done = try await browser.submit(
            withCode, action: "/signin/proof", ["method": "sms_otp", "credential": try browser.api.lastCode(sentTo: phone)])
        #expect(done.status == 303)
        let location = try #require(done.headers[.location])
        #expect(location.hasPrefix(redirectURI + "?"))
        return PageBrowser.query(of: location)
    }

    /// `POST /oauth2/token` with `client_secret_post`.
    func token(_ fields: [String: String], basic: Bool = false, secret: String? = nil) async throws -> APIResponse {
        var fields = fields
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if basic {
            let credentials = "\(clientID):\(secret ?? clientSecret ?? "")"
            headers[.authorization] = "Basic " + Data(credentials.utf8).base64EncodedString()
        } else {
            fields["client_id"] = clientID
            if let secret = secret ?? clientSecret { fields["client_secret"] = secret }
        }
        return try await api.form("/oauth2/token", fields, headers: headers)
    }

    func exchange(code: String, verifier: String) async throws -> APIResponse {
        try await token([
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "code_verifier": verifier,
        ])
    }

    /// Creates a user with password and phone, signs in through the pages and exchanges the code.
    func tokens(email: String, phone: String) async throws -> [String: Any] {
        _ = try await api.createUser(email, phone: phone)
        let (verifier, challenge) = Self.pkce()
        let query = try await signIn(PageBrowser(api: api), email: email, phone: phone, challenge: challenge)
        let response = try await exchange(code: try #require(query["code"]), verifier: verifier)
        #expect(response.status == 200)
        return response.json
    }

    func createConsent(_ request: CreateConsentRequest, accessToken: String) async throws -> APIResponse {
        let response = try await api.client.execute(
            uri: "/v1/consents", method: .post,
            headers: [.contentType: "application/json", .authorization: "Bearer \(accessToken)"],
            body: ByteBuffer(bytes: try WireJSON.encoder().encode(request)))
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    /// A consent to the consent tests' payment, created with the user's `accessToken`.
    func paymentConsent(accessToken: String) async throws -> ConsentResponse {
        try await createConsent(
            CreateConsentRequest(
                operation: .payment, transaction: PartnerConsentTests.payment, consentRedirectUrl: Self.consentRedirect),
            accessToken: accessToken
        ).decode(ConsentResponse.self)
    }

    func consent(_ id: String, accessToken: String, method: HTTPRequest.Method = .get) async throws -> APIResponse {
        let response = try await api.client.execute(
            uri: "/v1/consents/\(id)", method: method, headers: [.authorization: "Bearer \(accessToken)"], body: nil)
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }
}

extension APIClient {
    /// A form POST.
    func form(_ path: String, _ fields: [String: String], headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]) async throws -> APIResponse {
        let body = fields.sorted { $0.key < $1.key }
            .map { "\(RedirectURIRules.formEncoded($0.key))=\(RedirectURIRules.formEncoded($0.value))" }.joined(separator: "&")
        let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }
}

/// A browser without JavaScript over the router: keeps the page cookies and posts forms with
/// the CSRF token the page gave.
final class PageBrowser: @unchecked Sendable {
    let api: APIClient
    private(set) var cookies: [String: String] = [:]
    /// The last `Set-Cookie` values seen.
    private(set) var setCookies: [String] = []
    /// The browser's `Accept-Language`, sent with every request when set.
    var acceptLanguage: String?

    init(api: APIClient, acceptLanguage: String? = nil) {
        self.api = api
        self.acceptLanguage = acceptLanguage
    }

    @discardableResult
    func get(_ path: String) async throws -> APIResponse {
        try await send(.get, path, body: nil)
    }

    /// Posts the form of `page` whose action is `action`, with its CSRF token and `fields`.
    @discardableResult
    func submit(_ page: APIResponse, action: String, _ fields: [String: String], csrf: String? = nil) async throws -> APIResponse {
        var fields = fields
        fields["csrf"] = try csrf ?? #require(Self.csrf(in: page, action: action), "no form posting to \(action)")
        let body = fields.map { "\(RedirectURIRules.formEncoded($0.key))=\(RedirectURIRules.formEncoded($0.value))" }
            .joined(separator: "&")
        return try await send(.post, action, body: body)
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: String?) async throws -> APIResponse {
        var headers: HTTPFields = [:]
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        let response = try await api.client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        setCookies = response.headers[values: .setCookie]
        for cookie in setCookies {
            let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    /// The CSRF token of the form posting to `action` in an HTML page.
    static func csrf(in page: APIResponse, action: String) -> String? {
        let html = String(decoding: page.body, as: UTF8.self)
        guard let form = html.range(of: "action=\"\(action)\"") else { return nil }
        let rest = html[form.upperBound...]
        guard let start = rest.range(of: "name=\"csrf\" value=\""), let end = rest[start.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        return String(rest[start.upperBound..<end])
    }

    /// The decoded query of a URL.
    static func query(of url: String) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(string: url)?.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }
}

extension APIResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension PageBrowser {
    /// On the consent page at `path`: the password form, then "Send me a code by SMS".
    func givePasswordAndAskForCode(onConsent path: String) async throws {
        var page = try await get(path)
        try await submit(page, action: "\(path)/proof", ["method": "password", "credential": PartnerFixture.password])
        page = try await get(path)
        try await submit(page, action: "\(path)/send", ["method": "sms_otp"])
    }
}
