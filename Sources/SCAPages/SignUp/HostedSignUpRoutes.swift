import Hummingbird
import SCACore
import SCAEngine
import SCAPartners

/// The hosted sign-up pages (``HostedSignUp``): `GET`/`POST /signin/signup` (e-mail),
/// `GET`/`POST /signin/signup/phone` and `GET`/`POST /signin/password`. Each answers 404 unless
/// `signUp` allows its way.
struct HostedSignUpRoutes<Context: RequestContext> {
    let pages: HostedSignUp
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.get("signin/signup") { request, _ in try pages.show(request) }
        router.post("signin/signup") { request, _ in try await pages.start(request, form: try await pageForm(request)) }
        router.get("signin/signup/phone") { request, _ in try pages.showPhone(request) }
        router.post("signin/signup/phone") { request, _ in try await pages.startPhone(request, form: try await pageForm(request)) }
        router.get("signin/password") { request, _ in try pages.showPassword(request) }
        router.post("signin/password") { request, _ in try await pages.setPassword(request, form: try await pageForm(request)) }
    }

    /// A form body; anything else reads as an empty form (which no CSRF check passes).
    private func pageForm(_ request: Request) async throws -> [String: String] {
        guard FormBody.isForm(request.headers[.contentType]) else { return [:] }
        let buffer = try await request.body.collect(upTo: maxBodySize)
        return FormBody.parse(String(buffer: buffer)) ?? [:]
    }
}
