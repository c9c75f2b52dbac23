import Foundation
import Logging
import ServiceLifecycle

/// Forgets burnt signatures past their expiry in the background, so that a burn is
/// one write: every `interval` it deletes the expired ones
/// (``SCAServices/forgetExpiredSignatures()``). What is expired is accepted again by the burn
/// anyway, so a late or missed pass only leaves rows longer, never lets a live one go. Stops at
/// a graceful shutdown; every instance on a shared database may sweep, the deletes agree.
/// Device proofs burn nothing here: their burns are part of their challenge
/// (`ChallengeRecord.usedSignatures`); what is swept are the passkey assertions and
/// registrations, device-signed requests and deliveries.
package struct PeriodicSignatureSweep: Service {
    let services: SCAServices
    let interval: Duration

    package init(services: SCAServices, interval: Duration = .seconds(60)) {
        self.services = services
        self.interval = interval
    }

    package func run() async {
        await repeatUntilShutdown(every: interval) {
            do {
                try await services.forgetExpiredSignatures()
            } catch {
                services.logger.warning(
                    "expired signatures not swept", metadata: ["error": "\(String(describing: type(of: error)))"])
            }
        }
    }
}

// The service group logs each service by its description; the default one would reflect every
// stored property, the configuration's secrets and the services' keys included.
extension PeriodicSignatureSweep: CustomStringConvertible {
    package var description: String { "PeriodicSignatureSweep" }
}
