import Logging
import SCAEngine
import SCAStorageSQLite
import ServiceLifecycle

/// Keeps SQLite's WAL checkpoints off the writer: every `interval` a checkpoint runs
/// on a connection of its own, and the writer checkpoints by itself only past a large safety
/// threshold. A checkpoint syncs the WAL and the database file to the disk; run by the writer,
/// that sync held every write queued behind it, which was the tail of a flow's latency.
///
/// The interval is short (`sqlite.checkpointInterval`, 50 ms by default) because a write that
/// meets a sync waits for as long as the disk takes to sync what accumulated since the last one:
/// at 400 cold starts a second on this machine's disk, p99 15 to 17 ms every 250 ms, 6.5 to
/// 7.7 ms every 50 ms, the peak rate unchanged (docs/benchmarks.md). A pass with no
/// commit since the last whole checkpoint makes no call, so an idle server costs nothing here.
///
/// While it runs, the power-loss window of `synchronous = NORMAL` is about one `interval` of
/// commits (docs/operations.md, Durability). At a graceful shutdown it gives the writer its own threshold
/// back and runs a last checkpoint.
package struct BackgroundWALCheckpoints: Service {
    let store: SQLiteStore
    let interval: Duration
    let logger: Logger

    package init(store: SQLiteStore, interval: Duration = .milliseconds(50), logger: Logger) {
        self.store = store
        self.interval = interval
        self.logger = logger
    }

    package func run() async {
        do {
            try await store.setWriterCheckpointThreshold(pages: SQLiteStore.backgroundWriterCheckpointPages)
        } catch {
            // The writer keeps checkpointing by itself, as SQLite does by default.
            logger.warning("WAL checkpoints stay on the writer", metadata: ["error": "\(error)"])
            return
        }
        // The commit count when a checkpoint last copied the whole WAL: a pass with no commit
        // since then has nothing to copy and makes no call.
        var copiedThrough = -1
        await repeatUntilShutdown(every: interval) {
            let commits = store.committedWrites
            guard commits != copiedThrough else { return }
            do {
                if let checkpoint = try await store.checkpointWAL(), checkpoint.checkpointedPages == checkpoint.walPages {
                    copiedThrough = commits
                }
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

// The service group logs each service by its description; the default one would reflect every
// stored property, the configuration's secrets and the services' keys included.
extension BackgroundWALCheckpoints: CustomStringConvertible {
    package var description: String { "BackgroundWALCheckpoints" }
}
