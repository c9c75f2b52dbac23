import Foundation
import HTTPTypes
import JWTKit
import SCACore
import SCAEngine

/// What to do with a logout request (``OAuthService/endSession(_:)``).
package enum LogoutDecision: Sendable {
    /// Back to the client's registered `post_logout_redirect_uri`, with `state`.
    case redirect(String)
    /// The page that says the user is signed out of the client, named.
    case signedOut(clientName: String)
    /// A request that cannot be trusted: an error page, never a redirect.
    case errorPage(messageKey: String)
}

// OpenID Connect RP-Initiated Logout: a partner ends the session its sign-in opened.
extension OAuthService {
    /// `GET` or `POST /oauth2/logout`. The `id_token_hint` (required: every sign-in here is a
    /// new one, so there is no browser session to end without it) names the session; it is
    /// this server's id_token, checked by signature and issuer only, since one that has
    /// expired still names its session. A `client_id` beside it must be the token's audience,
    /// and a `post_logout_redirect_uri` one the client registered: otherwise the user stays
    /// on this server's page, and nothing is sent anywhere.
    package func endSession(_ parameters: [String: String]) async throws -> LogoutDecision {
        guard let hint = parameters["id_token_hint"], hint.utf8.count <= 8_192,
            let claims = try? await tokens.signer.verify(hint, as: IDTokenClaims.self), claims.iss.value == issuer,
            let clientID = claims.aud.value.first, claims.aud.value.count == 1,
            parameters["client_id"].map({ $0 == clientID }) ?? true,
            let client = try await partners.find(clientID)
        else { return .errorPage(messageKey: "logout.error.invalid") }
        var redirect: String?
        if let asked = parameters["post_logout_redirect_uri"] {
            guard RedirectURIRules.matches(asked, registered: client.postLogoutRedirectURIs) else {
                return .errorPage(messageKey: "signin.error.unregisteredRedirect")
            }
            redirect = asked
        }
        // Only the client's own session: an id_token of another client's sign-in ends nothing here.
        if let session = try await store.session(id: claims.sid), session.clientID == clientID, session.revokedAt == nil {
            try await store.revokeSession(id: session.id, now: runtime.now())
            await audit.record(
                .tokenRevoked, userID: session.userID, sessionID: session.id, details: ["clientId": clientID, "tokenType": "logout"])
        }
        guard let redirect else { return .signedOut(clientName: client.name) }
        var back: [(String, String)] = []
        if let state = parameters["state"], state.utf8.count <= 512 { back.append(("state", state)) }
        return .redirect(back.isEmpty ? redirect : RedirectURIRules.appending(back, to: redirect))
    }
}
