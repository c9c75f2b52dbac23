import Logging
import SCAStorageSQLite
import ServiceLifecycle

/// Keeps SQLite's WAL checkpoints off the writer (issue 14): every `interval` a checkpoint runs
/// on a connection of its own, and the writer checkpoints by itself only past a large safety
/// threshold. A checkpoint syncs the WAL and the database file to the disk; run by the writer,
/// that sync held every write queued behind it, which was the tail of a flow's latency.
///
/// While it runs, the power-loss window of `synchronous = NORMAL` is about one `interval` of
/// commits (README, Durability). At a graceful shutdown it gives the writer its own threshold
/// back and runs a last checkpoint.
public struct BackgroundWALCheckpoints: Service {
    let store: SQLiteStore
    let interval: Duration
    let logger: Logger

    public init(store: SQLiteStore, interval: Duration = .milliseconds(250), logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    public func run() async {
        do {
            try await store.setWriterCheckpointThreshold(pages: SQLiteStore.backgroundWriterCheckpointPages)
        } catch {
            // The writer keeps checkpointing by itself, as SQLite does by default.
            logger.warning("WAL checkpoints stay on the writer", metadata: ["error": "\(error)"])
            return
        }
        await repeatUntilShutdown(every: interval) {
            do {
                _ = try await store.checkpointWAL()
            } catch is CancellationError {
                // Stopping: the loop ends at its next check.
            } catch {
                // The next one retries; past the safety threshold the writer checkpoints itself.
                logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
            }
        }
        // Unstructured: the service's own task may be cancelled, and the store refuses work
        // from a cancelled task.
        await Task { [store, logger] in
            do {
                try await store.setWriterCheckpointThreshold(pages: SQLiteStore.writerCheckpointPages)
                _ = try await store.checkpointWAL()
            } catch {
                logger.warning("last WAL checkpoint failed", metadata: ["error": "\(error)"])
            }
        }.value
    }
}
