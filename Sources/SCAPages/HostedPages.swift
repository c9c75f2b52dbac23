import Foundation
import Hummingbird
import SCAEngine
import SCAPartners

/// The hosted pages, built once: the sign-in and its "New here?" sign-up share one renderer
/// and one sealed cookie, and the consent page carries its "Approve on your phone"; with
/// `serve --demo`, the demo partner's pages too; and the operator console for the bank's staff.
package struct HostedPages: Sendable {
    let signIn: HostedSignIn
    let signUp: HostedSignUp
    let consent: HostedConsent
    let logout: HostedLogout
    /// The operator console, for the bank's staff.
    let console: OperatorConsole
    /// The user's own account page.
    let account: AccountPages
    /// The pages' templates, compiled once.
    var renderer: PageRenderer { signIn.renderer }
    let partnerAccess: PartnerAccess
    let baseURL: String
    let maxBodySize: Int

    /// The pages over the engine's services and partner access.
    /// - Throws: when a page template does not compile.
    package init(engine: Engine, partnerAccess: PartnerAccess) throws {
        let configuration = engine.configuration
        let renderer = try PageRenderer(catalogue: engine.catalogue, defaultLanguage: configuration.defaultLanguage)
        let cookies = PageCookies(box: engine.box, secure: configuration.baseURL.lowercased().hasPrefix("https:"))
        let runtime = engine.runtime
        signIn = HostedSignIn(
            oauth: partnerAccess.oauth, challenges: engine.challenges, renderer: renderer, cookies: cookies,
            runtime: runtime, signUpMode: configuration.signUp.mode)
        signUp = HostedSignUp(signIn: signIn, signUp: engine.signUp)
        logout = HostedLogout(oauth: partnerAccess.oauth, renderer: renderer)
        consent = HostedConsent(
            consents: partnerAccess.consents, challenges: engine.challenges, users: engine.users, renderer: renderer,
            cookies: cookies, runtime: runtime,
            phone: HostedPhoneApproval(
                consents: partnerAccess.consents, operations: engine.operations, users: engine.users, renderer: renderer,
                cookies: cookies, runtime: runtime))
        console = OperatorConsole(console: engine.console, renderer: renderer, cookies: cookies, runtime: runtime)
        account = AccountPages(
            account: engine.accountOverview, users: engine.users, renderer: renderer, cookies: cookies, runtime: runtime)
        self.partnerAccess = partnerAccess
        baseURL = configuration.baseURL
        maxBodySize = configuration.maxBodySize
    }

    /// The pages' routes: the authorization endpoint with the sign-in, sign-up and consent
    /// pages, and the demo partner's pages when it runs.
    package func register<Context: RequestContext>(on routes: RouteRecorder<Context>) {
        HostedPageRoutes(signIn: signIn, consentPages: consent, logout: logout, maxBodySize: maxBodySize).register(on: routes)
        HostedSignUpRoutes(pages: signUp, maxBodySize: maxBodySize).register(on: routes)
        ConsoleRoutes(pages: console, maxBodySize: maxBodySize).register(on: routes)
        AccountPageRoutes(pages: account, maxBodySize: maxBodySize).register(on: routes)
        if let demo = partnerAccess.demoPartner {
            DemoRoutes(
                demo: demo, oauth: partnerAccess.oauth, consents: partnerAccess.consents, renderer: renderer, base: baseURL
            ).register(on: routes)
        }
    }
}
