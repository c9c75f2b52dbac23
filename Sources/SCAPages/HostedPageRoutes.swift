import Foundation
import HTTPTypes
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization
import SCAPartners

/// The hosted pages' routes: the OAuth authorization endpoint (which shows the sign-in page),
/// the sign-in forms, the consent pages with "Approve on your phone", the end-session
/// endpoint, and their assets.
struct HostedPageRoutes<Context: RequestContext> {
    let signIn: HostedSignIn
    let consentPages: HostedConsent
    let logout: HostedLogout
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        // The OAuth 2.0 authorization endpoint: a page, not JSON.
        router.get("oauth2/authorize") { request, _ in
            guard let query = FormBody.parse(request.uri.query ?? "") else {
                return signIn.renderer.errorPage(
                    heading: "signin.notPossible.title", message: PageText("signin.error.malformed"),
                    words: signIn.renderer.words(for: request, here: nil), status: .badRequest)
            }
            return try await signIn.authorize(request, query: query)
        }

        // The end-session endpoint (OpenID Connect RP-initiated logout): a page too.
        router.get("oauth2/logout") { request, _ in
            try await logout.endSession(request, parameters: FormBody.parse(request.uri.query ?? "") ?? [:])
        }
        router.post("oauth2/logout") { request, _ in
            try await logout.endSession(request, parameters: try await pageForm(request))
        }

        // The language switch of every page.
        router.get("hosted/language") { request, _ in languageSwitch(request) }

        // Hosted sign-in pages.
        router.get("hosted/style.css") { _, _ in PageRenderer.stylesheet() }
        router.get("hosted/passkey.js") { _, _ in PageRenderer.passkeyScript() }
        router.post("signin/passkey") { request, _ in try await signIn.passkey(request, form: try await pageForm(request)) }
        router.get("signin") { request, _ in try await signIn.show(request) }
        router.post("signin/email") { request, _ in try await signIn.email(request, form: try await pageForm(request)) }
        router.post("signin/send") { request, _ in try await signIn.send(request, form: try await pageForm(request)) }
        router.post("signin/proof") { request, _ in try await signIn.proof(request, form: try await pageForm(request)) }
        router.post("signin/cancel") { request, _ in try await signIn.cancel(request, form: try await pageForm(request)) }

        // Hosted consent pages.
        router.get("consents/:id") { request, context in
            try await consentPages.show(try context.parameters.require("id"), request: request)
        }
        router.post("consents/:id/send") { request, context in
            try await consentPages.send(try context.parameters.require("id"), request: request, form: try await pageForm(request))
        }
        router.post("consents/:id/proof") { request, context in
            try await consentPages.proof(try context.parameters.require("id"), request: request, form: try await pageForm(request))
        }
        router.post("consents/:id/refuse") { request, context in
            try await consentPages.refuse(try context.parameters.require("id"), request: request, form: try await pageForm(request))
        }

        // "Approve on your phone" on the consent page.
        if let phone = consentPages.phone {
            router.get("hosted/phone.js") { _, _ in PageRenderer.phoneScript() }
            router.post("consents/:id/phone") { request, context in
                try await phone.start(try context.parameters.require("id"), request: request, form: try await pageForm(request))
            }
            router.get("consents/:id/phone") { request, context in
                try await phone.show(try context.parameters.require("id"), request: request)
            }
            router.post("consents/:id/phone/status") { request, context in
                try await phone.status(try context.parameters.require("id"), request: request, form: try await pageForm(request))
            }
            router.post("consents/:id/phone/cancel") { request, context in
                try await phone.cancel(try context.parameters.require("id"), request: request, form: try await pageForm(request))
            }
        }
    }

    /// `GET /hosted/language?lang=de&next=/signin`: remembers the language and goes back to
    /// the page; a language not shipped or a page not ours is a `400` page that changes nothing.
    private func languageSwitch(_ request: Request) -> Response {
        let query = FormBody.parse(request.uri.query ?? "") ?? [:]
        guard let language = query["lang"].flatMap(Language.init(code:)), let next = query["next"],
            LanguageSwitch.isReturnPath(next)
        else {
            return signIn.renderer.errorPage(
                heading: "page.language.invalid.title", message: PageText("page.language.invalid.message"),
                words: signIn.renderer.words(for: request, here: nil), status: .badRequest)
        }
        return PageRenderer.redirect(to: next, cookie: LanguageSwitch.cookie(for: language, secure: signIn.cookies.secure))
    }

    /// A form body of a hosted page; anything else reads as an empty form (which no CSRF check passes).
    private func pageForm(_ request: Request) async throws -> [String: String] {
        guard FormBody.isForm(request.headers[.contentType]) else { return [:] }
        let buffer = try await request.body.collect(upTo: maxBodySize)
        return FormBody.parse(String(buffer: buffer)) ?? [:]
    }
}
