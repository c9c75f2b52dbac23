import Foundation
import SCAEngine

// Audit checkpoints over the assembled services, for `serve` and `sca-server audit`.
extension AuditCheckpoints {
    /// Uses the services' store, clock and token signer.
    package init(services: SCAServices) {
        self.init(store: services.store, runtime: services.runtime, tokens: services.tokens)
    }
}

extension PeriodicAuditCheckpoints {
    /// nil when no `auditCheckpointFile` is configured.
    package init?(services: SCAServices) {
        self.init(
            configuration: services.configuration, checkpoints: AuditCheckpoints(services: services),
            logger: services.logger)
    }
}
