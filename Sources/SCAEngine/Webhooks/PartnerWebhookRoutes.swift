import Foundation
import Hummingbird
import SCACore

/// `PUT` / `DELETE /admin/v1/clients/{clientId}/webhook`, scope `clients:write`; a client's
/// activity and failed deliveries (`clients:read`) and the retry of one (`clients:write`).
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
        admin.requiring(.clientsRead).get(":id/activity") { _, context in
            try Response.json(try await webhooks.activity(of: try context.parameters.require("id")))
        }
        admin.requiring(.clientsRead).get(":id/deliveries/failed") { _, context in
            try Response.json(try await webhooks.failedDeliveries(of: try context.parameters.require("id")))
        }
        admin.requiring(.clientsWrite).post(":id/deliveries/:delivery/retry") { _, context in
            try Response.json(
                try await webhooks.retry(try context.parameters.require("delivery"), of: try context.parameters.require("id")))
        }
    }
}
