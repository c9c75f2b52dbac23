import Hummingbird
import SCACore

/// `/v1/me/contact-confirmations` and `/v1/me/totp`: what a change of the user's own settings
/// leaves waiting for a code. A new e-mail address or phone number (asked for with
/// `PATCH /v1/me`) counts once the code sent to it comes back; a new authenticator app once a
/// code of it does. First-party tokens only.
struct AccountSettingsRoutes<Context: RequestContext> {
    let contactChanges: ContactChangeService
    let totpSetup: TOTPSetupService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/me/contact-confirmations") { request, _ in
            let body = try await request.decodeJSON(ContactConfirmationRequest.self, limit: maxBodySize)
            return try Response.json(try await contactChanges.confirm(body, authorization: request.headers[.authorization]))
        }
        router.delete("v1/me/contact-confirmations/:channel") { request, context in
            try await contactChanges.cancel(context.parameters.require("channel"), authorization: request.headers[.authorization])
            return Response(status: .noContent)
        }
        router.post("v1/me/totp") { request, _ in
            try Response.json(try await totpSetup.start(authorization: request.headers[.authorization]), status: .created)
        }
        router.post("v1/me/totp/confirmation") { request, _ in
            let body = try await request.decodeJSON(TOTPConfirmationRequest.self, limit: maxBodySize)
            try await totpSetup.confirm(body, authorization: request.headers[.authorization])
            return Response(status: .noContent)
        }
    }
}
