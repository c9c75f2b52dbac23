import Foundation
import Logging
import SCACore
import SCAStorage
import ServiceLifecycle

/// Writes a signed audit checkpoint (``AuditCheckpoint``) to the configured file when the
/// server starts, every `auditCheckpointInterval` minutes while it runs, and once more when
/// it stops gracefully, so that entries cut from the end of the chain later show against the newest
/// checkpoint kept outside the data directory (`sca-server audit verify --checkpoint FILE`).
///
/// Each write replaces the file atomically (write, then rename): a crash never leaves half a
/// checkpoint. Shipping older checkpoints elsewhere (write-once storage, another machine) is
/// left to the operator's tools; the file always holds the newest one.
///
/// A `Service`: the server puts it in its `ServiceGroup` before the HTTP server, so that at a
/// graceful shutdown the server drains first and the last checkpoint covers what it wrote.
package struct PeriodicAuditCheckpoints: Service {
    let checkpoints: AuditCheckpoints
    /// Where the checkpoint is written.
    package let path: String
    let interval: Duration
    let logger: Logger

    /// nil when no `auditCheckpointFile` is configured.
    package init?(configuration: ServerConfiguration, checkpoints: AuditCheckpoints, logger: Logger) {
        guard let path = configuration.auditCheckpointFile else { return nil }
        self.checkpoints = checkpoints
        self.path = path
        interval = .seconds(configuration.auditCheckpointInterval * 60)
        self.logger = logger
    }

    /// Writes a checkpoint now and every interval; at a graceful shutdown, once more and
    /// returns; when cancelled, returns at once. A failed write (database unreachable, disk
    /// full) is logged and retried at the next interval.
    package func run() async {
        var head: AuditEntry?
        // A graceful shutdown ends the wait early, like a cancellation.
        await repeatUntilShutdown(every: interval) {
            do {
                head = try await write(after: head)
            } catch {
                logNotWritten(error)
            }
        }
        guard !Task.isCancelled else { return }
        do {
            try await writeNow()
        } catch {
            logNotWritten(error)
        }
    }

    private func logNotWritten(_ error: any Error) {
        logger.warning(
            "audit checkpoint not written", metadata: ["path": "\(path)", "error": "\(String(describing: type(of: error)))"])
    }

    /// Writes a checkpoint of the chain as it stands.
    @discardableResult
    package func writeNow() async throws -> AuditCheckpoint {
        let head = try await checkpoints.head()
        return try await write(head: head)
    }

    /// The newest entry if the chain has grown past `previous`, else `previous` again (a chain
    /// found shorter is not signed over: the last checkpoint keeps what it had).
    private func write(after previous: AuditEntry?) async throws -> AuditEntry? {
        let head = try await checkpoints.head(after: previous?.sequence ?? 0) ?? previous
        try await write(head: head)
        return head
    }

    @discardableResult
    private func write(head: AuditEntry?) async throws -> AuditCheckpoint {
        let (checkpoint, jws) = try await checkpoints.sign(head: head)
        try Data((jws + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        logger.debug("audit checkpoint written", metadata: ["path": "\(path)", "sequence": "\(checkpoint.sequence)"])
        return checkpoint
    }
}

// The service group logs each service by its description; the default one would reflect every
// stored property, the configuration's secrets and the services' keys included.
extension PeriodicAuditCheckpoints: CustomStringConvertible {
    package var description: String { "PeriodicAuditCheckpoints" }
}
