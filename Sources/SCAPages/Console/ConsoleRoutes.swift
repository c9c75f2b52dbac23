import Foundation
import Hummingbird
import SCAPartners

/// The operator console's routes, under `/console`: pages and forms only, each form posting
/// with its CSRF token; everything it does is also on the admin API.
struct ConsoleRoutes<Context: RequestContext> {
    let pages: OperatorConsole
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.get("console") { request, _ in try await pages.home(request) }
        router.post("console/signin/email") { request, _ in try await pages.email(request, form: try await form(request)) }
        router.post("console/signin/passkey") { request, _ in try await pages.passkey(request, form: try await form(request)) }
        router.post("console/signin/send") { request, _ in try await pages.send(request, form: try await form(request)) }
        router.post("console/signin/proof") { request, _ in try await pages.proof(request, form: try await form(request)) }
        router.post("console/signin/cancel") { request, _ in try await pages.cancel(request, form: try await form(request)) }
        router.post("console/signout") { request, _ in try await pages.signOut(request, form: try await form(request)) }

        router.get("console/users") { request, _ in try await pages.users(request) }
        router.get("console/risk") { request, _ in try await pages.risk(request) }
        router.get("console/risk/report.csv") { request, _ in try await pages.riskCSV(request) }
        router.get("console/audit") { request, _ in try await pages.audit(request) }
        router.get("console/audit/export") { request, _ in try await pages.auditExport(request) }
        router.get("console/audit/verify") { request, _ in try await pages.auditVerify(request) }
        router.get("console/partners") { request, _ in try await pages.partners(request) }
        router.get("console/overview") { request, _ in try await pages.overview(request) }
        router.get("console/partners/:id") { request, context in
            try await pages.partner(request, id: try context.parameters.require("id"))
        }
        router.post("console/partners/:id/deliveries/:delivery/retry") { request, context in
            try await pages.retryDelivery(
                request, clientID: try context.parameters.require("id"), deliveryID: try context.parameters.require("delivery"),
                form: try await form(request))
        }
        router.get("console/users/:id") { request, context in
            try await pages.user(request, id: try context.parameters.require("id"))
        }
        router.post("console/users/:id/unblock") { request, context in
            try await pages.unblock(request, userID: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("console/users/:id/restriction/lift") { request, context in
            try await pages.liftRestriction(request, userID: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("console/users/:id/sessions/end") { request, context in
            try await pages.endSessions(request, userID: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("console/users/:id/sessions/:session/end") { request, context in
            try await pages.endSession(
                request, userID: try context.parameters.require("id"), sessionID: try context.parameters.require("session"),
                form: try await form(request))
        }
        router.post("console/users/:id/roles") { request, context in
            try await pages.setRoles(request, userID: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("console/users/:id/totp/remove") { request, context in
            try await pages.removeAuthenticatorApp(request, userID: try context.parameters.require("id"), form: try await form(request))
        }
        router.post("console/users/:id/partners/:client/revoke") { request, context in
            try await pages.revokePartner(
                request, userID: try context.parameters.require("id"), clientID: try context.parameters.require("client"),
                form: try await form(request))
        }
        router.post("console/users/:id/devices/:device/remove") { request, context in
            try await pages.removeDevice(
                request, userID: try context.parameters.require("id"), deviceID: try context.parameters.require("device"),
                form: try await form(request))
        }
        router.post("console/users/:id/passkeys/:passkey/remove") { request, context in
            try await pages.removePasskey(
                request, userID: try context.parameters.require("id"), passkeyID: try context.parameters.require("passkey"),
                form: try await form(request))
        }
    }

    /// A form body; anything else reads as an empty form (which no CSRF check passes).
    private func form(_ request: Request) async throws -> [String: String] {
        guard FormBody.isForm(request.headers[.contentType]) else { return [:] }
        let buffer = try await request.body.collect(upTo: maxBodySize)
        return FormBody.parse(String(buffer: buffer)) ?? [:]
    }
}
