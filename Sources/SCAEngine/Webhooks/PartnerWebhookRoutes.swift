import Foundation
import Hummingbird
import SCACore

/// `PUT` / `DELETE /admin/v1/clients/{clientId}/webhook`, scope `clients:write`.
struct PartnerWebhookRoutes<Context: RequestContext> {
    let webhooks: WebhookService
    let access: AdminAccess
    let maxBodySize: Int

    struct Removed: Encodable { var clientId: String; var removed = true }

    func register(on router: some RouterMethods<Context>) {
        let admin = router.group("admin/v1/clients").add(middleware: AdminAuthMiddleware<Context>(access: access))
        admin.requiring(.clientsWrite).put(":id/webhook") { request, context in
            let body = try await request.decodeJSON(SetPartnerWebhookRequest.self, limit: maxBodySize)
            return try Response.json(try await webhooks.set(clientID: try context.parameters.require("id"), body))
        }
        admin.requiring(.clientsWrite).delete(":id/webhook") { _, context in
            let id = try context.parameters.require("id")
            try await webhooks.remove(clientID: id)
            return try Response.json(Removed(clientId: id))
        }
    }
}
