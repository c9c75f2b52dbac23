import Logging
import ServiceLifecycle

/// A background pass run every `interval` until a graceful shutdown: the partner webhook outbox
/// drained every second (what is left is sent by the next start, or another instance), and the
/// burnt signatures past their expiry forgotten every minute (what is expired is accepted again
/// anyway, so a late or missed pass only leaves rows longer; every instance on a shared
/// database may sweep, the deletes agree). A failed pass is logged and the next one retries.
package struct PeriodicWork: Service, CustomStringConvertible {
    /// What the service group's log calls it; the default description would reflect every
    /// stored property, the services' keys included.
    package let description: String
    let interval: Duration
    let logger: Logger
    /// What a failed pass's warning says was not done.
    let failure: String
    let pass: @Sendable () async throws -> Void

    package init(
        description: String, interval: Duration, logger: Logger, failure: String,
        pass: @escaping @Sendable () async throws -> Void
    ) {
        self.description = description
        self.interval = interval
        self.logger = logger
        self.failure = failure
        self.pass = pass
    }

    package func run() async {
        await repeatUntilShutdown(every: interval) {
            do {
                try await pass()
            } catch {
                logger.warning("\(failure)", metadata: ["error": "\(String(describing: type(of: error)))"])
            }
        }
    }
}
