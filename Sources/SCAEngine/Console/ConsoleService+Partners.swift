import Foundation
import SCACore
import SCAStorage

// The console's partners page: every client with what it holds and how its deliveries go,
// one client's failed deliveries, and an operator's retry of one.
extension ConsoleService {
    /// Every partner client, by name, with its activity. Needs `clients:read`.
    package func partners(by actor: ConsoleOperator) async throws -> [ConsolePartner] {
        try await requireRead(.clientsRead, by: actor)
        var partners: [ConsolePartner] = []
        for client in try await store.partnerClients() {
            partners.append(
                ConsolePartner(
                    client: client, webhookURL: try await store.partnerWebhook(clientID: client.id)?.url,
                    activity: try await webhooks.activity(of: client)))
        }
        return partners.sorted { ($0.client.name.lowercased(), $0.client.id) < ($1.client.name.lowercased(), $1.client.id) }
    }

    /// One client, with its failed deliveries newest first. Needs `clients:read`.
    /// - Throws: 404 `client.not_found`.
    package func partner(_ clientID: String, by actor: ConsoleOperator) async throws -> ConsolePartnerDetail {
        try await requireRead(.clientsRead, by: actor)
        guard InputRules.isWellFormedID(clientID, prefix: "cli"), let client = try await store.partnerClient(id: clientID) else {
            throw Problem.clientNotFound
        }
        return ConsolePartnerDetail(
            partner: ConsolePartner(
                client: client, webhookURL: try await store.partnerWebhook(clientID: client.id)?.url,
                activity: try await webhooks.activity(of: client)),
            failedDeliveries: try await webhooks.failedDeliveries(of: client))
    }

    /// Sends one failed delivery of the client again (see ``WebhookService/retry(_:of:)``).
    /// Needs `clients:write`.
    package func retryDelivery(_ deliveryID: String, of clientID: String, by actor: ConsoleOperator) async throws {
        try await act(.clientsWrite, by: actor) {
            _ = try await webhooks.retry(deliveryID, of: clientID)
        }
    }
}

/// One partner client as the partners page lists it.
package struct ConsolePartner: Sendable {
    package var client: PartnerClientRecord
    /// Where its operation events go, if it registered a webhook.
    package var webhookURL: String?
    package var activity: PartnerActivityResponse
}

/// One partner's page: the client, and the deliveries that failed.
package struct ConsolePartnerDetail: Sendable {
    package var partner: ConsolePartner
    package var failedDeliveries: [WebhookDeliveryResponse]
}
