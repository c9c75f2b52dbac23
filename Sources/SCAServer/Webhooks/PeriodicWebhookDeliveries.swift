import Foundation
import Logging
import ServiceLifecycle

/// Drains the webhook outbox in the background: every `interval` it expires the
/// operations whose time is up and sends the deliveries that are due, so no request waits on
/// a partner's server. Stops at a graceful shutdown; what is left is sent by the next start
/// (or another instance).
package struct PeriodicWebhookDeliveries: Service {
    let services: SCAServices
    let interval: Duration

    package init(services: SCAServices, interval: Duration = .seconds(1)) {
        self.services = services
        self.interval = interval
    }

    package func run() async {
        await repeatUntilShutdown(every: interval) {
            do {
                try await services.deliverWebhooks()
            } catch {
                services.logger.warning(
                    "webhook deliveries not sent", metadata: ["error": "\(String(describing: type(of: error)))"])
            }
        }
    }
}

// The service group logs each service by its description; the default one would reflect every
// stored property, the configuration's secrets and the services' keys included.
extension PeriodicWebhookDeliveries: CustomStringConvertible {
    package var description: String { "PeriodicWebhookDeliveries" }
}
