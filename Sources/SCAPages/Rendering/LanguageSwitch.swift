import Foundation
import HTTPTypes
import Hummingbird
import SCALocalization

/// The language switch every page carries: links to `GET /hosted/language?lang=de&next=…`,
/// which remembers the choice in a cookie and sends the browser back to the page it came from.
///
/// The choice is a cookie of its own, not part of a visit's sealed state, so it needs no CSRF
/// token, works without script, and leaves the visit (challenge, consent, the code just sent)
/// exactly where it was: the page the browser returns to is the same step, in the new
/// language. It outranks everything else a page weighs, `ui_locales` included: it is what the
/// person reading chose, on this very page.
enum LanguageSwitch {
    static let cookie = "sca_lang"
    static let path = "/hosted/language"
    /// A year: a person who chose their language once should not have to again.
    static let lifetime = 31_536_000

    static func link(to language: Language, returningTo here: String) -> String {
        "\(path)?lang=\(language.tag)&next=\(percentEncoded(here))"
    }

    /// The language the browser's cookie names, if it names a shipped one.
    static func chosen(in request: Request) -> Language? {
        PageCookies.values(named: cookie, in: request).lazy.compactMap(Language.init(code:)).first
    }

    /// Where `next` may go: one of the pages, never another site or an API route, so the switch
    /// is never a redirect to somewhere the page did not name. The path's segments are plain
    /// names (no `..`, `.` or empty one that a browser would resolve elsewhere, as in
    /// `/signin/../v1/me`), then any query in printable ASCII without a backslash; openapi.yaml
    /// states the same pattern.
    static func isReturnPath(_ next: String) -> Bool {
        next.utf8.count <= 4_096 && next.wholeMatch(of: returnPath) != nil
    }

    /// A literal, so the compiler checks the pattern; built per use, as a `Regex` is not
    /// `Sendable` and the switch is followed once per click.
    private static var returnPath: Regex<Substring> {
        #/(?:\/signin(?:\/[A-Za-z0-9_-]+)*(?:\?[!-\[\]-~]*)?|\/consents(?:\/[A-Za-z0-9_-]+)+(?:\?[!-\[\]-~]*)?|\/oauth2\/authorize\?[!-\[\]-~]*|\/console(?:\/[A-Za-z0-9_-]+)*(?:\?[!-\[\]-~]*)?)/#
    }

    /// The `Set-Cookie` value that remembers `language`.
    static func cookie(for language: Language, secure: Bool) -> String {
        "\(cookie)=\(language.tag); Path=/; Max-Age=\(lifetime); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    private static func percentEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
