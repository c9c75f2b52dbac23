import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization
import SCAPartners

/// The demo partner's pages (only with `serve --demo`): where its sign-in and consents come
/// back, and the command that creates a payment consent. They go through the same services as
/// any partner: the token endpoint and the consents API.
struct DemoRoutes<Context: RequestContext> {
    let demo: DemoPartner
    let oauth: OAuthService
    let consents: ConsentService
    let renderer: PageRenderer
    let base: String

    /// The payment the demo consent asks for.
    static var payment: Transaction {
        Transaction(
            amount: "125.00", currency: "EUR", payee: .init(name: "Alice Martin", iban: "FR7630006000011234567890189"),
            reference: "Invoice 42")
    }

    func register(on router: some RouterMethods<Context>) {
        router.get("demo/callback") { request, _ in
            await callback(FormBody.parse(request.uri.query ?? "") ?? [:])
        }
        router.post("demo/consent") { _, _ in
            try Response.json(try await createConsent(), status: .created)
        }
        router.get("demo/consent-done") { request, _ in
            await consentDone(FormBody.parse(request.uri.query ?? "") ?? [:])
        }
        router.get("demo/fapi-callback") { request, _ in
            await fapiCallback(FormBody.parse(request.uri.query ?? "") ?? [:])
        }
    }

    /// The FAPI demo partner's sign-in came back. Its back end is the partner's script: the
    /// page prints the command that checks this callback and exchanges the code. The URL in
    /// the command is rebuilt from the parameters, each percent-encoded, so nothing in a
    /// crafted link can reach the shell.
    func fapiCallback(_ query: [String: String]) async -> Response {
        guard let fapi = await demo.fapi else {
            return await page("No FAPI demo partner", ["message": "This server registered none."], status: .notFound, frame: DemoPageTemplates.fapiFrame)
        }
        if let error = query["error"] {
            return await page("Sign-in not completed", [
                "message": "The sign-in came back with error=\(error)" + (query["error_description"].map { " (\($0))" } ?? "") + ".",
            ], frame: DemoPageTemplates.fapiFrame)
        }
        guard let code = query["code"], let state = query["state"] else {
            return await page(
                "Sign-in not completed", ["message": "This callback has no code or no state."], status: .badRequest,
                frame: DemoPageTemplates.fapiFrame)
        }
        let parameters = [("code", code), ("state", state)] + (query["iss"].map { [("iss", $0)] } ?? [])
        let callback = base + DemoPartner.fapiCallbackPath + "?"
            + parameters.map { "\($0.0)=\(RedirectURIRules.formEncoded($0.1))" }.joined(separator: "&")
        return await page("Back at \(DemoPartner.fapiName)", [
            "message": "The bank sent the user back with a code. \(DemoPartner.fapiName)'s back end checks the state and the issuer, then exchanges the code at POST /oauth2/token with a signed assertion and a DPoP proof.",
            "commandHint": "Run it from the project's root:",
            "command": fapi.tokenCommand(base: base, callback: callback),
        ], frame: DemoPageTemplates.fapiFrame)
    }

    /// The sign-in came back: exchange the code and show the id_token's claims.
    func callback(_ query: [String: String]) async -> Response {
        if let error = query["error"] {
            return await page("Sign-in not completed", [
                "message": "The sign-in came back with error=\(error)" + (query["error_description"].map { " (\($0))" } ?? "") + ".",
            ], retry: true)
        }
        // Another state is not this demo's sign-in coming back (a forged or stale link): refused
        // as forbidden before anything is read from it.
        guard query["state"] == demo.state, let clientID = await demo.clientID else {
            return await page("Sign-in not completed", [
                "message": "This callback has a state this demo did not send.",
            ], status: .forbidden, retry: true)
        }
        guard let code = query["code"] else {
            return await page("Sign-in not completed", [
                "message": "This callback has no code.",
            ], status: .badRequest, retry: true)
        }
        do {
            let tokens = try await oauth.token(
                [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": base + DemoPartner.callbackPath,
                    "code_verifier": demo.verifier, "client_id": clientID,
                ],
                presenting: .inProcess())
            let claims = Self.claims(of: tokens.idToken ?? "")
            // A partner checks that the id_token answers its own sign-in request.
            guard claims.contains(["name": "nonce", "value": demo.nonce]) else {
                return await page("Sign-in not completed", [
                    "message": "The id_token does not carry the nonce this demo sent.",
                ], status: .badRequest, retry: true)
            }
            await demo.signedIn(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
            return await page("Signed in", [
                "message": "\(DemoPartner.name) exchanged the code at POST /oauth2/token with its PKCE verifier. The id_token it received says:",
                "claims": claims,
                "command": DemoPartner.consentCommand(base: base),
                "commandHint": "Next, have \(DemoPartner.name) create a payment consent with this sign-in's token; the answer names its consentUrl:",
            ])
        } catch let error as OAuthError {
            return await page("Sign-in not completed", [
                "message": "The token endpoint refused the code: \(error.error) (\(error.description)).",
            ], status: .badRequest, retry: true)
        } catch {
            return await page("Sign-in not completed", ["message": "The code could not be exchanged."], status: .badGateway)
        }
    }

    /// `POST /demo/consent`: a payment consent with the signed-in user's token (refreshed once
    /// if it has run out). Without a user's token the demo partner may not ask: `403`.
    func createConsent() async throws -> ConsentResponse {
        guard let tokens = await demo.tokens(), let clientID = await demo.clientID else {
            throw Self.signInFirst("sign in to the demo partner first: open the sign-in URL printed at start-up")
        }
        let request = CreateConsentRequest(
            operation: .payment, transaction: Self.payment, consentRedirectUrl: base + DemoPartner.consentDonePath,
            resourceId: "demo-order-42")
        do {
            return try await consents.create(request, presenting: .inProcess(authorization: "Bearer \(tokens.access)"))
        } catch let problem as Problem where problem.status == 401 {
            guard let refresh = tokens.refresh,
                let renewed = try? await oauth.token(
                    ["grant_type": "refresh_token", "refresh_token": refresh, "client_id": clientID], presenting: .inProcess())
            else {
                throw Self.signInFirst("the demo partner's sign-in has ended: open the sign-in URL printed at start-up again")
            }
            await demo.signedIn(accessToken: renewed.accessToken, refreshToken: renewed.refreshToken)
            return try await consents.create(request, presenting: .inProcess(authorization: "Bearer \(renewed.accessToken)"))
        }
    }

    private static func signInFirst(_ detail: String) -> Problem {
        Problem(status: 403, code: .forbidden, title: "Forbidden", detail: detail)
    }

    /// The consent came back: the status in the URL is a hint, so ask the API.
    func consentDone(_ query: [String: String]) async -> Response {
        guard let id = query["consentId"] else {
            return await page("No consent", ["message": "This page expects consentId and status."], status: .badRequest)
        }
        var values: [String: Any] = [
            "message": "The redirect says status=\(query["status"] ?? "?"). \(DemoPartner.name) confirms it with GET /v1/consents/\(id):",
            "command": DemoPartner.consentCommand(base: base),
            "commandHint": "Another consent:",
        ]
        if let tokens = await demo.tokens(), let consent = try? await consents.get(id, presenting: .inProcess(authorization: "Bearer \(tokens.access)")) {
            var rows = [["name": "status", "value": consent.status.rawValue]]
            if let transaction = consent.transaction {
                let words = Self.words(renderer)
                let amount = words.amount(transaction.amount, currency: transaction.currency)
                rows.append(["name": "payment", "value": words.text("operation.payment", ["amount": amount, "payee": transaction.payee.name])])
            }
            rows.append(["name": "operation token", "value": consent.accessToken == nil ? "none" : "present (its txn binds the payment)"])
            values["claims"] = rows
        } else {
            values["message"] = "The redirect says status=\(query["status"] ?? "?"), but \(DemoPartner.name) could not confirm it (sign in again)."
        }
        return await page("Consent \(query["status"] ?? "")", values)
    }

    private func page(
        _ heading: String, _ values: [String: Any], status: HTTPResponse.Status = .ok, retry: Bool = false,
        frame: PageFrame = DemoPageTemplates.frame
    ) async -> Response {
        var values = values
        if retry, let url = await demo.signInURL(base: base) { values["retry"] = url }
        values["heading"] = heading
        values["partner"] = DemoPartner.name
        values["hasClaims"] = !((values["claims"] as? [[String: String]])?.isEmpty ?? true)
        return renderer.page(
            "demo", title: "\(DemoPartner.name) (demo)", values, words: Self.words(renderer), status: status,
            frame: frame)
    }

    /// A partner's own page is in its own words, English here, with no switch as the bank's
    /// pages have.
    static func words(_ renderer: PageRenderer) -> PageWords {
        PageWords(localizer: Localizer(catalogue: renderer.catalogue, language: .english), here: nil)
    }

    /// The claims a partner looks at first, in this order.
    static var shownClaims: [String] { ["iss", "sub", "aud", "acr", "amr", "auth_time", "nonce", "roles"] }

    /// The claims of a JWS's payload, shown as the partner would read them (not verified
    /// again here: it came straight from the token endpoint over this server's own call).
    static func claims(of jws: String) -> [[String: String]] {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { return [] }
        return shownClaims.compactMap { key in
            guard let value = object[key] else { return nil }
            let text: String
            if let list = value as? [Any] {
                text = list.isEmpty ? "(none)" : list.map { "\($0)" }.joined(separator: ", ")
            } else if key == "auth_time", let seconds = (value as? NSNumber)?.doubleValue {
                text = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
            } else {
                text = "\(value)"
            }
            return ["name": key, "value": text]
        }
    }
}
