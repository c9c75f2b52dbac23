import Foundation
import Hummingbird
import SCAEngine
import SCAPartners

/// The end-session endpoint's page (OpenID Connect RP-Initiated Logout): the partner sends the
/// browser here to end the session its sign-in opened; the user goes back to the partner's
/// registered address, or stays on a page that says they are signed out.
struct HostedLogout: Sendable {
    let oauth: OAuthService
    let renderer: PageRenderer

    static let path = "/oauth2/logout"

    /// `GET` or `POST /oauth2/logout`, with the query's or the form's parameters.
    func endSession(_ request: Request, parameters: [String: String]) async throws -> Response {
        let words = renderer.words(for: request, uiLocales: parameters["ui_locales"], here: nil)
        switch try await oauth.endSession(parameters) {
        case .redirect(let location):
            return PageRenderer.redirect(to: location)
        case .signedOut(let clientName):
            let title = words.text("logout.title")
            return renderer.page(
                "signed-out", title: title,
                ["heading": words.text("logout.heading"), "message": words.text("logout.message", ["partner": clientName])], words: words)
        case .errorPage(let messageKey):
            return renderer.errorPage(heading: "logout.notPossible.title", message: PageText(messageKey), words: words, status: .badRequest)
        }
    }
}
