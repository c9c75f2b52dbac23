import Foundation
import SCAEngine
import SCAPartners

/// The hosted pages, built once: the sign-in and its "New here?" sign-up share one renderer
/// and one sealed cookie, and the consent page carries its "Approve on your phone".
package struct HostedPages: Sendable {
    package let signIn: HostedSignIn
    package let signUp: HostedSignUp
    package let consent: HostedConsent
    /// The pages' templates, compiled once.
    package var renderer: PageRenderer { signIn.renderer }

    package init(
        oauth: OAuthService, challenges: ChallengeService, consents: ConsentService, operations: OperationService,
        signUp: SignUpService, signUpMode: SignUpMode, renderer: PageRenderer, cookies: PageCookies, runtime: ServerRuntime
    ) {
        signIn = HostedSignIn(
            oauth: oauth, challenges: challenges, renderer: renderer, cookies: cookies, runtime: runtime,
            signUpMode: signUpMode)
        self.signUp = HostedSignUp(signIn: signIn, signUp: signUp)
        consent = HostedConsent(
            consents: consents, challenges: challenges, renderer: renderer, cookies: cookies, runtime: runtime,
            phone: HostedPhoneApproval(
                consents: consents, operations: operations, renderer: renderer, cookies: cookies, runtime: runtime))
    }
}
