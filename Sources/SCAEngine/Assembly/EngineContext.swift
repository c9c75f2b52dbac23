import Logging
import SCACore
import SCALocalization
import SCAStorage

/// What every service of the server is built over, made once by ``Engine``: the configuration,
/// the store, the server key's sealing box, the clock and randomness, the audit trail, the
/// logger and the message catalogue.
///
/// A class, though nothing in it changes: every service holds the context, and services hold
/// services, so a value here would be copied into every one of them, and the engine's
/// async code would carry those copies in each of its frames.
package final class EngineContext: Sendable {
    package let configuration: ServerConfiguration
    package let store: any SCAStore
    /// Seals and opens under the server key.
    package let box: SecretBox
    package let runtime: ServerRuntime
    /// The security events' trail and counters.
    package let audit: AuditTrail
    package let logger: Logger
    /// Every word a person reads, in every shipped language, loaded once at start-up.
    package let catalogue: Catalogue

    package init(
        configuration: ServerConfiguration, store: any SCAStore, box: SecretBox, runtime: ServerRuntime, audit: AuditTrail,
        logger: Logger, catalogue: Catalogue
    ) {
        self.configuration = configuration
        self.store = store
        self.box = box
        self.runtime = runtime
        self.audit = audit
        self.logger = logger
        self.catalogue = catalogue
    }
}

/// A service built over an ``EngineContext``: the context's parts read as the service's own
/// (`store`, `audit`, …), so a service names only the other services it needs.
package protocol EngineService {
    var context: EngineContext { get }
}

extension EngineService {
    package var configuration: ServerConfiguration { context.configuration }
    package var store: any SCAStore { context.store }
    package var box: SecretBox { context.box }
    package var runtime: ServerRuntime { context.runtime }
    package var audit: AuditTrail { context.audit }
    package var logger: Logger { context.logger }
    package var catalogue: Catalogue { context.catalogue }
}
