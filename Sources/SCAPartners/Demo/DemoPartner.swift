import Foundation
import SCACore
import SCAEngine

/// The partner application of `sca-server serve --demo`: a public client ("ACME Pay") whose
/// redirects come back to small pages of this server, so a newcomer can click through the
/// sign-in and a payment consent in a browser and see what a partner receives.
///
/// It behaves as a partner backend would: it holds the PKCE verifier of the sign-in URL it
/// printed, exchanges the code at the token endpoint, keeps the user's tokens, and creates
/// consents with them through the consents API. It never issues a token itself: every token it
/// holds was earned with SCA on the hosted pages. It lives in memory, for one process.
package actor DemoPartner {
    package static let name = "ACME Pay"
    package static let callbackPath = "/demo/callback"
    package static let consentDonePath = "/demo/consent-done"
    static let consentPath = "/demo/consent"
    static let scopes = "openid offline email consents"

    // The FAPI 2.0 demo partner: a `fapi2` client whose back end is the partner's script
    // (`docs/fapi/fapi_client.py`), run by the newcomer with the key the server wrote for it.
    package static let fapiName = "ACME Open Banking"
    package static let fapiCallbackPath = "/demo/fapi-callback"
    /// In the data directory; made at the first `serve --demo` and kept.
    package static let fapiKeyFile = "demo-fapi-partner.pem"
    /// The key id the script signs under.
    package static let fapiKeyID = "partner-key-1"
    /// The payment the FAPI demo partner asks for, as `authorization_details` (RFC 9396).
    package static let fapiPayment = #"[{"type":"payment_initiation","instructedAmount":{"amount":"25.00","currency":"EUR"},"#
        + #""creditorName":"ACME Shop","creditorAccount":{"iban":"FR7630006000011234567890189"},"#
        + #""remittanceInformationUnstructured":"Order 1234"}]"#
    static let script = "python3 docs/fapi/fapi_client.py"

    /// The registered FAPI demo partner: its client id and the file of its private key.
    package struct FAPIClient: Sendable, Equatable {
        package var clientID: String
        package var keyPath: String

        package init(clientID: String, keyPath: String) {
            self.clientID = clientID
            self.keyPath = keyPath
        }

        /// The command that pushes the payment request and prints the URL to open.
        package func pushCommand(base: String) -> String {
            DemoPartner.command(["par", keyPath, clientID, base, base + DemoPartner.fapiCallbackPath, DemoPartner.fapiPayment])
        }

        /// The command that checks the callback URL and exchanges its code for DPoP-bound tokens.
        package func tokenCommand(base: String, callback: String) -> String {
            DemoPartner.command(["token", keyPath, clientID, base, base + DemoPartner.fapiCallbackPath, callback])
        }
    }

    /// The script's command line with `arguments`, each one shell word.
    static func command(_ arguments: [String]) -> String {
        ([script] + arguments.map(shellWord)).joined(separator: " ")
    }

    /// `word` as one shell word: as it is when it holds nothing a shell reads, else single-quoted.
    static func shellWord(_ word: String) -> String {
        let plain = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._/:=@%+,")
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'''"#) + "'"
    }

    /// What start-up prints for the newcomer.
    package struct Instructions: Sendable {
        package var clientID: String
        /// Open in a browser: the authorization request of the demo partner.
        package var signInURL: String
        /// Run after signing in: creates a payment consent and prints it with its `consentUrl`.
        package var consentCommand: String
        /// The FAPI 2.0 demo partner, and the command that starts its payment.
        package var fapi: FAPIClient?
        package var fapiPushCommand: String?

        package init(clientID: String, signInURL: String, consentCommand: String, fapi: FAPIClient? = nil, fapiPushCommand: String? = nil) {
            self.clientID = clientID
            self.signInURL = signInURL
            self.consentCommand = consentCommand
            self.fapi = fapi
            self.fapiPushCommand = fapiPushCommand
        }

        /// The lines to print.
        package var lines: [String] {
            [
                "Demo partner \"\(DemoPartner.name)\" (public client \(clientID)):",
                "  1. Sign in as a partner's user would: open this URL in a browser (e.g. savvy@example.com,",
                "     password savvy-demo-pass, then the SMS code from the outbox):",
                "     \(signInURL)",
                "     You land on the partner's callback page, which exchanges the code and shows the id_token.",
                "  2. Then create a payment consent with the partner's token; it prints the consentUrl to open:",
                "     \(consentCommand)",
            ] + fapiLines
        }

        private var fapiLines: [String] {
            guard let fapi, let fapiPushCommand else { return [] }
            return [
                "Demo FAPI 2.0 partner \"\(DemoPartner.fapiName)\" (private_key_jwt client \(fapi.clientID); its private key: \(fapi.keyPath)):",
                "  From the project's root, with Python 3 and PyJWT (pip install \"pyjwt[crypto]\"):",
                "  3. Push a signed payment request (EUR 25.00 to ACME Shop) and open the URL it prints; the SMS names the payment:",
                "     \(fapiPushCommand)",
                "  4. The page you land on prints the command that exchanges the code for a DPoP-bound token.",
            ]
        }
    }

    // Fixed at creation: read without hopping onto the actor.
    package nonisolated let verifier: String
    package nonisolated let state: String
    /// Sent in the sign-in URL and checked in the id_token that comes back, as a partner must.
    package nonisolated let nonce: String
    package private(set) var clientID: String?
    package private(set) var fapi: FAPIClient?
    private var accessToken: String?
    private var refreshToken: String?

    init(runtime: ServerRuntime) {
        verifier = runtime.makeSecret()
        state = runtime.makeSecret()
        nonce = runtime.makeSecret()
    }

    package func registered(_ clientID: String) { self.clientID = clientID }

    package func registered(_ fapi: FAPIClient) { self.fapi = fapi }

    /// Keeps the tokens of a completed sign-in.
    package func signedIn(accessToken: String, refreshToken: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    package func tokens() -> (access: String, refresh: String?)? {
        accessToken.map { ($0, refreshToken) }
    }

    /// The command that has the demo partner create a payment consent (`POST /demo/consent`).
    package static func consentCommand(base: String) -> String {
        "curl -s -X POST \(base)\(consentPath)"
    }

    /// The authorization request URL under `base`.
    package func signInURL(base: String) -> String? {
        guard let clientID else { return nil }
        let items = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", base + Self.callbackPath),
            ("scope", Self.scopes), ("state", state), ("nonce", nonce),
            ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", PKCE.method),
        ]
        return base + "/oauth2/authorize?"
            + items.map { "\($0.0)=\(RedirectURIRules.formEncoded($0.1))" }.joined(separator: "&")
    }
}
