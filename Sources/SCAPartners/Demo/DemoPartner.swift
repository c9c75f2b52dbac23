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

    /// What start-up prints for the newcomer.
    package struct Instructions: Sendable {
        package var clientID: String
        /// Open in a browser: the authorization request of the demo partner.
        package var signInURL: String
        /// Run after signing in: creates a payment consent and prints it with its `consentUrl`.
        package var consentCommand: String

        package init(clientID: String, signInURL: String, consentCommand: String) {
            self.clientID = clientID
            self.signInURL = signInURL
            self.consentCommand = consentCommand
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
            ]
        }
    }

    // Fixed at creation: read without hopping onto the actor.
    package nonisolated let verifier: String
    package nonisolated let state: String
    /// Sent in the sign-in URL and checked in the id_token that comes back, as a partner must.
    package nonisolated let nonce: String
    package private(set) var clientID: String?
    private var accessToken: String?
    private var refreshToken: String?

    init(runtime: ServerRuntime) {
        verifier = runtime.makeSecret()
        state = runtime.makeSecret()
        nonce = runtime.makeSecret()
    }

    package func registered(_ clientID: String) { self.clientID = clientID }

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
