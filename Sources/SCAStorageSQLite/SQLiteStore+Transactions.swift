import GRDB
import SCAStorage
import Synchronization

extension SQLiteStore {
    /// Runs `body` in a read transaction (a snapshot of the last commit) on the calling thread.
    ///
    /// Every store call goes through here or ``write(_:)``. GRDB's async `read` and `write` run
    /// their body on the connection's dispatch queue and resume the caller on the concurrency
    /// pool: two thread wake-ups per store call. Their synchronous forms run the body right here:
    /// dispatch runs a `sync` block on the thread that calls it, and a read takes one of the
    /// pool's reader connections, which the few threads of the concurrency pool never exhaust.
    /// A read never waits for the disk's syncs: in WAL mode readers do not wait for the writer.
    /// Measured with `sca-bench` (docs/benchmarks.md): half the context switches of a challenge or a cold
    /// start, and a cold start's median latency at a fixed 400/s down by a fifth; the peak rate
    /// did not move beyond the machine's noise.
    ///
    /// With tracing, inside a traced request, the transaction is a `store.read` span named
    /// after the store operation that opened it (`function`, the caller's name by default).
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled (nothing is read), or
    ///   what `body` or SQLite throws.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T, function: String = #function) async throws -> T {
        try Task.checkCancellation()
        guard tracing.isOn else { return try readHere(body) }
        return try await tracing.childSpan("store.read") { span in
            span.describeStoreOperation(function, system: "sqlite")
            return try readHere(body)
        }
    }

    /// Runs `body` in a write transaction, committed when it returns and rolled back when it
    /// throws.
    ///
    /// Under `synchronous = NORMAL` a commit does not wait for the disk, so the transaction runs
    /// on the calling thread (``read(_:)`` says why); a caller that finds the writer busy waits
    /// for one transaction's CPU work, the time a lock is held. Two waits are longer and then hold
    /// a thread of the concurrency pool too: another process holding the file's write lock (up to
    /// the busy timeout), and the writer's own checkpoint past its safety threshold, which the
    /// background checkpoints keep from being reached. Under `FULL` every commit syncs the WAL,
    /// for milliseconds on a slow disk: those run on the writer's own queue, as GRDB's async
    /// `write` does, so that no thread of the concurrency pool waits for the disk.
    ///
    /// With tracing, the transaction is a `store.write` span, as ``read(_:function:)``'s.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled (nothing is written), or
    ///   what `body` or SQLite throws.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T, function: String = #function) async throws -> T {
        guard tracing.isOn else { return try await untracedWrite(body) }
        return try await tracing.childSpan("store.write") { span in
            span.describeStoreOperation(function, system: "sqlite")
            return try await untracedWrite(body)
        }
    }

    private func untracedWrite<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let result: T
        if commitsWaitForDisk {
            result = try await writer.write(body)
        } else {
            try Task.checkCancellation()
            result = try writeHere(body)
        }
        commits.add(1, ordering: .relaxed)
        return result
    }

    /// How many write transactions this store has committed since it was opened (not those of
    /// other connections to the file). Background checkpoints skip a pass when it has not moved:
    /// an idle server makes no checkpoint call at all.
    package var committedWrites: Int { commits.load(ordering: .relaxed) }

    /// The synchronous overloads, which an `async` caller would not pick by itself.
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T { try writer.read(body) }
    private func writeHere<T>(_ body: (Database) throws -> T) throws -> T { try writer.write(body) }
}
