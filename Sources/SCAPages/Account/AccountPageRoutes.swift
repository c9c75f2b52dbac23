import Foundation
import Hummingbird
import SCAPartners

/// The account page's routes, under `/account`: pages and forms only, each form posting with its
/// CSRF token; everything it does is also on the JSON API under `/v1/me`.
struct AccountPageRoutes<Context: RequestContext> {
    let pages: AccountPages
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.get("account") { request, _ in try await pages.home(request) }
        router.get("account/passkey.js") { _, _ in AccountPages.passkeyScript() }
        router.post("account/signin/email") { request, _ in try await pages.email(request, form: try await form(request)) }
        router.post("account/signin/passkey") { request, _ in try await pages.passkeySignIn(request, form: try await form(request)) }
        router.post("account/signin/send") { request, _ in try await pages.send(request, form: try await form(request)) }
        router.post("account/signin/proof") { request, _ in try await pages.proof(request, form: try await form(request)) }
        router.post("account/signin/cancel") { request, _ in try await pages.cancel(request, form: try await form(request)) }
        router.post("account/signout") { request, _ in try await pages.signOut(request, form: try await form(request)) }

        router.post("account/devices/:id/rename") { request, context in
            try await pages.renameDevice(request, id: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("account/devices/:id/remove") { request, context in
            try await pages.removeDevice(request, id: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("account/passkeys/add") { request, _ in try await pages.startPasskey(request, form: try await form(request)) }
        router.get("account/passkeys/new") { request, _ in try await pages.newPasskey(request) }
        router.post("account/passkeys") { request, _ in try await pages.addPasskey(request, form: try await form(request)) }
        router.post("account/passkeys/cancel") { request, _ in try await pages.cancelPasskey(request, form: try await form(request)) }
        router.post("account/passkeys/:id/remove") { request, context in
            try await pages.removePasskey(request, id: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("account/sessions/end-others") { request, _ in
            try await pages.endOtherSessions(request, form: try await form(request))
        }
        router.post("account/sessions/:id/end") { request, context in
            try await pages.endSession(request, id: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("account/partners/:client/revoke") { request, context in
            try await pages.revokePartner(request, clientID: try context.parameters.require("client"), form: try await form(request))
        }
        router.post("account/consents/:id/revoke") { request, context in
            try await pages.revokeConsent(request, id: try context.parameters.require("id"), form: try await form(request))
        }
        // The user's own details, each after a confirmation of its own.
        router.post("account/settings/:change/start") { request, context in
            let name = try context.parameters.require("change")
            guard let change = AccountChange(rawValue: name), change != .passkey else { return PageRenderer.redirect(to: AccountPages.base) }
            return try await pages.startChange(change, request, action: "/account/settings/\(name)/start", form: try await form(request))
        }
        router.post("account/settings/cancel") { request, _ in try await pages.cancelChange(request, form: try await form(request)) }
        router.get("account/settings/:change") { request, context in
            try await pages.changeForm(request, change: try context.parameters.require("change"))
        }
        router.post("account/settings/:change") { request, context in
            try await pages.change(request, change: try context.parameters.require("change"), form: try await form(request))
        }
        router.post("account/contact/:channel/confirm") { request, context in
            try await pages.confirmContact(request, channel: try context.parameters.require("channel"), form: try await form(request))
        }
        router.post("account/contact/:channel/cancel") { request, context in
            try await pages.cancelContact(request, channel: try context.parameters.require("channel"), form: try await form(request))
        }
        router.post("account/beneficiaries/:id/remove") { request, context in
            try await pages.removeBeneficiary(request, id: try context.parameters.require("id"), form: try await form(request))
        }
    }

    /// A form body; anything else reads as an empty form (which no CSRF check passes).
    private func form(_ request: Request) async throws -> [String: String] {
        guard FormBody.isForm(request.headers[.contentType]) else { return [:] }
        let buffer = try await request.body.collect(upTo: maxBodySize)
        return FormBody.parse(String(buffer: buffer)) ?? [:]
    }
}
