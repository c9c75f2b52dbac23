import Foundation
import SCACore
import SCAEngine
import SCAPartners

/// What a browser's visit to a hosted page carries from one request to the next, sealed with
/// the server key in an `HttpOnly` cookie: nothing in it can be read or changed by the page or
/// the user, and any instance on the database can open it.
struct PageState: Codable, Sendable {
    /// The key of this visit's CSRF tokens (32 random bytes, base64url).
    var secret: String
    /// Sign-in: the authorization request being answered.
    var authorization: AuthorizationRequest?
    var clientName: String?
    var email: String?
    var challengeID: String?
    /// Consent: the consent this visit is about.
    var consentID: String?
    /// Consent: the operation sent to the user's phone ("Approve on your phone"), while the
    /// page waits for it.
    var operationID: String?
    /// Shown once on the next page, then dropped; kept as catalogue keys, so the page writes
    /// them in its language.
    var notice: PageText?
    var error: PageText?
    // Sign up or in.
    /// A new user's enrolment token, between their code and their password (sealed like the rest).
    var enrolmentToken: String?
    /// The number typed for "Continue with your phone number" (instead of `email`).
    var phone: String?
    /// Consent: the partner's `ui_locales` on the consent link, kept for the visit's pages.
    var uiLocales: String?
    // Operator console.
    /// The operator's session, once signed in.
    var console: ConsoleSession?
    /// Where a step-up goes back to: the console page whose action asked for it.
    var returnTo: String?
    // The user's own account page.
    /// The user's page session, once signed in.
    var account: AccountSession?
    /// The token of the user's own `settings_change` confirmation, between the confirmation and
    /// the change it is for (a new passkey), spent by that change.
    var settingsToken: String?
    /// What that confirmation is for.
    var settingsPurpose: AccountChange?
    /// A new authenticator app shown to the user, waiting for its first code.
    var totpSetup: TOTPSetupResponse?
}
