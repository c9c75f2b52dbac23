import Crypto
import Foundation
import Hummingbird
import SCACore
import SCAEngine

/// Seals ``PageState`` into cookies and checks the CSRF token of every form.
struct PageCookies: Sendable {
    let box: SecretBox
    /// `Secure` when the pages are served over https (`publicBaseURL`).
    let secure: Bool

    static let signIn = "sca_signin"
    static let consent = "sca_consent"
    /// The operator console's: only ever sent to `/console`, and never on a request another
    /// site starts (`SameSite=Strict`), so no other page can act with an operator's session.
    static let console = "sca_console"
    private static let sealingContext = "hosted-page"

    /// The console's cookies are sealed under a context of their own: a hosted page's cookie
    /// copied into the console's opens nothing there, nor the reverse.
    private static let consoleSealingContext = "operator-console"

    /// The account page's: only ever sent to `/account`, never on a request another site
    /// starts, and sealed under a context of its own, as the console's.
    static let account = "sca_account"
    private static let accountSealingContext = "account-page"

    /// The state in the request's cookie `name`, or nil when there is none or it does not open.
    func state(_ name: String, in request: Request) -> PageState? {
        let context = switch name {
        case Self.console: Self.consoleSealingContext
        case Self.account: Self.accountSealingContext
        default: Self.sealingContext
        }
        for value in Self.values(named: name, in: request) {
            guard let sealed = Base64URL.decode(value), let plain = try? box.open(sealed, context: context)
            else { continue }
            return try? JSONDecoder().decode(PageState.self, from: Data(plain))
        }
        return nil
    }

    /// The values of every cookie `name` the request carries, in order (a browser may send two
    /// of one name, set for different paths).
    static func values(named name: String, in request: Request) -> [String] {
        guard let header = request.headers[.cookie] else { return [] }
        return header.split(separator: ";").compactMap { pair in
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == name ? String(parts[1]) : nil
        }
    }

    /// The `Set-Cookie` value that stores `state`: a session cookie (no expiry: the challenge
    /// and the consent carry the deadlines), `HttpOnly`, `SameSite=Lax`, `Secure` over https.
    func cookie(_ name: String, _ state: PageState) throws -> String {
        let sealed = try box.seal(Array(try JSONEncoder().encode(state)), context: Self.sealingContext)
        return "\(name)=\(Base64URL.encode(sealed)); Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes cookie `name`.
    func clear(_ name: String) -> String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The console's cookie: as ``cookie(_:_:)``, for `/console` only and `SameSite=Strict`.
    func consoleCookie(_ state: PageState) throws -> String {
        let sealed = try box.seal(Array(try JSONEncoder().encode(state)), context: Self.consoleSealingContext)
        return "\(Self.console)=\(Base64URL.encode(sealed)); Path=/console; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes the console's cookie.
    func clearConsole() -> String {
        "\(Self.console)=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The account page's cookie: as ``consoleCookie(_:)``, for `/account` only.
    func accountCookie(_ state: PageState) throws -> String {
        let sealed = try box.seal(Array(try JSONEncoder().encode(state)), context: Self.accountSealingContext)
        return "\(Self.account)=\(Base64URL.encode(sealed)); Path=/account; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes the account page's cookie.
    func clearAccount() -> String {
        "\(Self.account)=; Path=/account; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// A fresh visit key.
    static func newSecret(_ runtime: ServerRuntime) -> String { runtime.makeSecret() }

    /// The CSRF token of the form posting to `action`: HMAC-SHA256 under the visit's key, so
    /// each form has its own and none is valid in another visit.
    static func csrfToken(_ state: PageState, action: String) -> String {
        let key = SymmetricKey(data: Base64URL.decode(state.secret) ?? [])
        return Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(action.utf8), using: key)))
    }

    static func checkCSRF(_ state: PageState, action: String, presented: String?) -> Bool {
        guard let presented else { return false }
        return ConstantTime.equals(Array(csrfToken(state, action: action).utf8), Array(presented.utf8))
    }
}
