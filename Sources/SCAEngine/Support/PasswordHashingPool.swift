import Foundation
import SCAStorage
import Synchronization

/// Runs password and PIN hashing (scrypt) on a bounded set of dedicated threads.
///
/// scrypt is CPU- and memory-heavy on purpose (32 MiB and about 0.1 s per hash with the
/// default parameters). Running it on Swift's cooperative pool would block the few threads
/// every other route needs; running it on an unbounded queue would let a burst of password
/// proofs start hundreds of computations at once and exhaust memory. So:
///
/// - at most `concurrency` computations run at once, each on a thread of this pool;
/// - further jobs wait in a first-in, first-out queue (a waiting job costs a few hundred bytes,
///   not the 32 MiB of a running one);
/// - beyond `queueLimit` waiting jobs, ``run(_:)`` refuses at once with ``PasswordHashingBusy``
///   (answered `503 server.busy` with `Retry-After`), which bounds how long an accepted
///   request can wait.
///
/// Threads are started on demand and end when the queue is empty, so an idle pool (or one of
/// the many servers a test run builds) holds no thread.
package final class PasswordHashingPool: Sendable {
    /// A unit of work, resuming its caller's continuation when done.
    private typealias Job = @Sendable () -> Void

    /// What the lock protects: the waiting jobs and how many threads are working.
    private struct State {
        /// FIFO: `jobs[head...]` are waiting. The consumed prefix is dropped now and then, so
        /// that taking the next job stays O(1) without an unbounded array.
        var jobs: [Job] = []
        var head = 0
        var workers = 0

        var waiting: Int { jobs.count - head }

        mutating func next() -> Job? {
            guard head < jobs.count else {
                jobs.removeAll(keepingCapacity: true)
                head = 0
                return nil
            }
            let job = jobs[head]
            head += 1
            if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// Hashes that may run at the same time.
    package let concurrency: Int
    /// Jobs that may wait for a thread; one more is refused with ``PasswordHashingBusy``.
    package let queueLimit: Int
    private let metrics: ServerMetrics?
    private let tracing: TraceRecorder
    private let state = Mutex(State())

    /// What a job does with a secret; its span says which, and never the secret.
    package enum Operation: String, Sendable {
        /// A new hash of a secret being set (a password, a PIN, the decoy's).
        case hash
        /// A secret given as a proof, checked against its stored hash.
        case verify
    }

    /// - Parameters:
    ///   - concurrency: threads computing at once (at least 1).
    ///   - queueLimit: jobs that may wait beyond those (at least 0).
    ///   - metrics: where each hash's duration is recorded, if anywhere.
    ///   - tracing: where each job's `password.hash` span goes, a child of its caller's.
    package init(concurrency: Int, queueLimit: Int, metrics: ServerMetrics? = nil, tracing: TraceRecorder = .off) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
        self.metrics = metrics
        self.tracing = tracing
    }

    /// Jobs waiting for a thread now (not counting the running ones).
    package var waitingCount: Int { state.withLock { $0.waiting } }

    /// Runs `work` on a pool thread and returns its result.
    ///
    /// With tracing, inside a traced request, the job is a `password.hash` span (its wait in
    /// the queue included) whose `sca.password.operation` is `operation`, and, for a
    /// verification, whether it matched.
    /// - Throws: ``PasswordHashingBusy`` when the queue is full, before `work` starts;
    ///   otherwise whatever `work` throws.
    package func run<Value: Sendable>(_ operation: Operation, _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        guard tracing.isOn else { return try await untracedRun(work) }
        return try await tracing.childSpan("password.hash") { span in
            span.set("sca.password.operation", operation.rawValue)
            let value = try await untracedRun(work)
            // Whether a proof's secret matched is the outcome the span exists to show.
            if operation == .verify, let matched = value as? Bool { span.set("sca.password.matched", matched) }
            return value
        }
    }

    private func untracedRun<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let metrics = self.metrics
            let job: Job = {
                let started = ContinuousClock.now
                let result = Result(catching: work)
                let elapsed = ContinuousClock.now - started
                metrics?.recordPasswordHash(
                    seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                continuation.resume(with: result)
            }
            if !submit(job) {
                continuation.resume(throwing: PasswordHashingBusy())
            }
        }
    }

    /// Queues `job`, starting a thread when fewer than `concurrency` are working.
    /// - Returns: false when the queue is full (the job was not taken).
    private func submit(_ job: @escaping Job) -> Bool {
        enum Decision { case startThread, queued, refused }
        let decision = state.withLock { state -> Decision in
            if state.workers < concurrency {
                state.workers += 1
                state.jobs.append(job)
                return .startThread
            }
            guard state.waiting < queueLimit else { return .refused }
            state.jobs.append(job)
            return .queued
        }
        switch decision {
        case .refused:
            return false
        case .queued:
            return true
        case .startThread:
            // A thread of its own, not a Dispatch worker: Dispatch would grow its pool when
            // these block for long, which is exactly the unbounded growth this pool prevents.
            let thread = Thread { [self] in work() }
            thread.name = "sca-password-hash"
            thread.start()
            return true
        }
    }

    /// A worker: takes jobs in order until none is waiting, then ends.
    private func work() {
        while let job = state.withLock({ state -> Job? in
            if let job = state.next() { return job }
            // Decided under the lock: a job submitted after this sees one worker fewer and
            // starts a thread, so no job is left waiting with nobody to run it.
            state.workers -= 1
            return nil
        }) {
            job()
        }
    }
}
