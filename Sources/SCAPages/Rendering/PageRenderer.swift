import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import SCACore
import SCAEngine

/// Renders the hosted pages and gives every page answer its security headers.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary

    /// Compiles every template once, at start-up.
    /// - Throws: the parser's error for a broken template, so the server refuses to start
    ///   rather than crash on the first page.
    init() throws {
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
        library = MustacheLibrary(templates: templates)
    }

    /// The page `template` with `values`, inside the layout and its `frame`.
    func html(_ template: String, title: String, _ values: [String: Any], frame: PageFrame = .bank) -> String {
        let content = library.render(values, withTemplate: template) ?? ""
        return library.render(frame.values(title: title, content: content), withTemplate: "layout") ?? ""
    }

    /// A page answer.
    /// - Parameter formTarget: the origin (or private-use scheme) a form of this page may end
    ///   up at, through our redirect: the client's redirect URI.
    func page(
        _ template: String, title: String, _ values: [String: Any], status: HTTPResponse.Status = .ok,
        formTarget: String? = nil, cookie: String? = nil, frame: PageFrame = .bank
    ) -> Response {
        var headers = Self.securityHeaders(formTarget: formTarget)
        headers[.contentType] = "text/html; charset=utf-8"
        if let cookie { headers[.setCookie] = cookie }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: html(template, title: title, values, frame: frame))))
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
            string: PageTemplates.style + DemoPageTemplates.style + PhoneApprovalTemplates.style + SignUpPageTemplates.style)))
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
