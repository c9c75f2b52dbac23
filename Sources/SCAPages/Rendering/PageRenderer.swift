import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import SCACore
import SCAEngine
import SCALocalization

/// Renders the hosted pages in the reader's language and gives every page answer its
/// security headers.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    let catalogue: Catalogue
    /// The language when neither the person nor the request names a shipped one.
    let defaultLanguage: Language

    /// Compiles every template once, at start-up.
    /// - Throws: the parser's error for a broken template, so the server refuses to start
    ///   rather than crash on the first page.
    init(catalogue: Catalogue, defaultLanguage: Language) throws {
        self.catalogue = catalogue
        self.defaultLanguage = defaultLanguage
        var templates: [String: MustacheTemplate] = [:]
        // The demo partner's page (`serve --demo`) compiles with the others.
        let pages = PageTemplates.all.merging(DemoPageTemplates.all, uniquingKeysWith: { first, _ in first })
            // Sign up or in.
            .merging(SignUpPageTemplates.all, uniquingKeysWith: { first, _ in first })
        for (name, text) in pages {
            templates[name] = try MustacheTemplate(string: text)
        }
        // "Approve on your phone".
        for (name, text) in PhoneApprovalTemplates.all { templates[name] = try MustacheTemplate(string: text) }
        // The operator console.
        for (name, text) in ConsoleTemplates.all { templates[name] = try MustacheTemplate(string: text) }
        // The user's own account page.
        for (name, text) in AccountTemplates.all { templates[name] = try MustacheTemplate(string: text) }
        library = MustacheLibrary(templates: templates)
    }

    /// The words of a page answering `request`, in the first language of: the one chosen with
    /// the page's switch, the authorization request's `ui_locales`, the account's (`stored`),
    /// the browser's `Accept-Language`, the configured default.
    /// - Parameters:
    ///   - stored: the account's language, only where the page knows whose it is without
    ///     having been told by whoever is typing (a consent's user; never the address typed on
    ///     the sign-in page, whose language would tell that it has an account).
    ///   - here: the page's own address, for the switch to come back to.
    func words(for request: Request, uiLocales: String? = nil, stored: Language? = nil, here: String?) -> PageWords {
        let language = LanguageSwitch.chosen(in: request) ?? LocaleNegotiation.language(
            uiLocales: uiLocales, stored: stored?.tag, acceptLanguage: request.headers[.acceptLanguage], default: defaultLanguage)
        return PageWords(localizer: Localizer(catalogue: catalogue, language: language), here: here)
    }

    /// The page `template` with `values`, inside the layout and its `frame`; the templates read
    /// the catalogue as `t`.
    func html(_ template: String, title: String, _ values: [String: Any], words: PageWords, frame: PageFrame = .bank) -> String {
        var values = values
        values["t"] = words.catalogueNode
        let content = library.render(values, withTemplate: template) ?? ""
        return library.render(frame.values(title: title, content: content, words: words), withTemplate: "layout") ?? ""
    }

    /// A page answer.
    /// - Parameter formTarget: the origin (or private-use scheme) a form of this page may end
    ///   up at, through our redirect: the client's redirect URI.
    func page(
        _ template: String, title: String, _ values: [String: Any], words: PageWords, status: HTTPResponse.Status = .ok,
        formTarget: String? = nil, cookie: String? = nil, frame: PageFrame = .bank
    ) -> Response {
        var headers = Self.securityHeaders(formTarget: formTarget)
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentLanguage] = words.language.tag
        if let cookie { headers[.setCookie] = cookie }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: html(template, title: title, values, words: words, frame: frame))))
    }

    /// The error page: a heading and what happened, both catalogue keys, with the title the
    /// heading's.
    func errorPage(
        heading: String, message: PageText, words: PageWords, status: HTTPResponse.Status, cookie: String? = nil
    ) -> Response {
        let title = words.text(heading)
        return page(
            "error", title: title, ["heading": title, "message": words.text(message)], words: words, status: status,
            cookie: cookie)
    }

    /// `303 See Other` to `location` (after a form, the browser follows with a GET).
    static func redirect(to location: String, formTarget: String? = nil, cookie: String? = nil) -> Response {
        var headers = securityHeaders(formTarget: formTarget)
        headers[.location] = location
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }

    /// The passkey script, with the same headers as the pages.
    static func passkeyScript() -> Response {
        var headers = securityHeaders(formTarget: nil)
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: PageTemplates.passkeyScript)))
    }

    /// The stylesheet, with the same headers as the pages.
    static func stylesheet() -> Response {
        var headers = securityHeaders(formTarget: nil)
        headers[.contentType] = "text/css; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(
            string: PageTemplates.style + DemoPageTemplates.style + PhoneApprovalTemplates.style + SignUpPageTemplates.style
                + ConsoleTemplates.style + AccountTemplates.style)))
    }

    /// Nothing loads from elsewhere, no script but our own (/hosted/passkey.js) runs, nobody frames the page, forms post only
    /// here (and follow our redirect to the client), and nothing is cached or leaks a Referer.
    static func securityHeaders(formTarget: String?) -> HTTPFields {
        let formAction = ["'self'", formTarget].compactMap { $0 }.joined(separator: " ")
        return [
            .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action \(formAction); "
                + "frame-ancestors 'none'; base-uri 'none'",
            .cacheControl: "no-store",
            referrerPolicy: "no-referrer",
            .xContentTypeOptions: "nosniff",
            xFrameOptions: "DENY",
        ]
    }

    private static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    /// For browsers without `frame-ancestors`.
    private static let xFrameOptions = HTTPField.Name("X-Frame-Options")!

    /// What `form-action` must allow for a redirect to `uri`: its origin, or its private-use scheme.
    static func formTarget(for uri: String) -> String? {
        if let origin = RedirectURIRules.origin(of: uri) { return origin }
        return URLComponents(string: uri)?.scheme.map { "\($0):" }
    }
}
