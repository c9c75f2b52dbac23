import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// Runs `body` on a pooled connection, giving up after the store's deadline.
    ///
    /// While the database is unreachable the pool keeps trying to connect, and a lease would
    /// wait for it without end; a connection whose peer went silent would wait on its socket.
    /// So the operation runs in a task of its own that races a timer, and the caller is
    /// answered by whichever finishes first: at the deadline at the latest, however long the
    /// loser takes to wind down. When the timer wins, the operation is cancelled (which
    /// withdraws a waiting lease), it may no longer start on a connection leased too late, and
    /// the connection it holds, if any, is closed: a statement cannot be taken back once sent,
    /// and a connection that did not answer in time is not trusted with another request.
    /// Closing it also fails the statement at once. A transaction cut this way is rolled back
    /// by the server, so either all of it happened or none of it did; a single statement (or a
    /// COMMIT already sent) may have been applied with its answer lost, as with any network
    /// failure.
    ///
    /// With tracing, inside a traced request, the operation is a span named `span`
    /// (`store.statement` for statements each atomic by itself, `store.transaction` for one
    /// transaction), with the store operation (`function`, the caller's name by default) that
    /// ran it; its time includes waiting for a connection.
    ///
    /// - Throws: `StoreUnavailable` on timeout or when no connection can be had or it breaks;
    ///   otherwise what `body` threw, unchanged (callers match constraint violations on it).
    func leased<Result: Sendable>(
        span name: String = "store.statement", function: String = #function,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        guard tracing.isOn else { return try await untracedLease(body) }
        return try await tracing.childSpan(name) { span in
            span.describeStoreOperation(function, system: "postgresql")
            return try await untracedLease(body)
        }
    }

    private func untracedLease<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let race = DeadlineRace<Result>()
        let timeout = self.timeout
        let client = self.client
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    race.start(continuation)
                    race.setOperation(
                        Task {
                            do {
                                let result = try await client.withConnection { connection in
                                    guard race.hold(connection) else { throw CancellationError() }
                                    defer { race.release() }
                                    return try await body(connection)
                                }
                                race.finish(.success(result))
                            } catch where !race.leased && !(error is CancellationError) {
                                // No connection could be had at all (the pool gave up
                                // connecting, or was closed): whatever the pool's reason,
                                // the store is down.
                                race.finish(.failure(StoreUnavailable(reason: "no database connection: \(type(of: error))")))
                            } catch {
                                race.finish(.failure(error))
                            }
                        })
                    race.setTimer(
                        Task {
                            do {
                                try await Task.sleep(for: timeout)
                            } catch {
                                return  // the operation finished first
                            }
                            await race.expire(StoreUnavailable(reason: "no answer from the database within \(timeout)"))
                        })
                }
            } onCancel: {
                race.finish(.failure(CancellationError()))
            }
        } catch let error as PSQLError where error.isConnectionFailure {
            throw StoreUnavailable(reason: "database connection failed: \(PostgresStoreError.summary(of: error))")
        }
    }
}

/// One operation against its deadline: the caller is resumed once, by whichever ends first.
///
/// `@unchecked Sendable` is safe because every stored property is read and written only while
/// holding `lock`, and the continuation is taken out under the lock before it is resumed, so
/// it is resumed exactly once and never while the lock is held.
private final class DeadlineRace<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Result, any Error>?
    private var done = false
    private var connection: PostgresConnection?
    private var wasLeased = false
    private var operation: Task<Void, Never>?
    private var timer: Task<Void, Never>?

    /// Whether a connection was ever leased: an error before that came from the pool.
    var leased: Bool { lock.withLock { wasLeased } }

    func start(_ continuation: CheckedContinuation<Result, any Error>) {
        let cancelled: Bool = lock.withLock {
            guard !done else { return true }
            self.continuation = continuation
            return false
        }
        // The caller was cancelled before the race began.
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func setOperation(_ task: Task<Void, Never>) {
        let cancel: Bool = lock.withLock {
            operation = task
            return done
        }
        if cancel { task.cancel() }
    }

    func setTimer(_ task: Task<Void, Never>) {
        let cancel: Bool = lock.withLock {
            timer = task
            return done
        }
        if cancel { task.cancel() }
    }

    /// Records the leased connection; false once the race is over (the deadline passed while
    /// the lease was on its way), so that nothing is sent on it.
    func hold(_ connection: PostgresConnection) -> Bool {
        lock.withLock {
            guard !done else { return false }
            self.connection = connection
            wasLeased = true
            return true
        }
    }

    func release() {
        lock.withLock { connection = nil }
    }

    /// The operation ended (or the caller was cancelled): resume the caller, stop the timer.
    func finish(_ result: Swift.Result<Result, any Error>) {
        let (continuation, timer, operation): (CheckedContinuation<Result, any Error>?, Task<Void, Never>?, Task<Void, Never>?) =
            lock.withLock {
                guard !done else { return (nil, nil, nil) }
                done = true
                defer { self.continuation = nil }
                return (self.continuation, self.timer, self.operation)
            }
        guard let continuation else { return }
        timer?.cancel()
        // Only a cancelled caller finishes the race before the operation has: pass it on.
        if case .failure(let error) = result, error is CancellationError { operation?.cancel() }
        continuation.resume(with: result)
    }

    /// The deadline passed first: answer `error`, cancel the operation, close its connection.
    func expire(_ error: StoreUnavailable) async {
        let (continuation, operation, connection): (CheckedContinuation<Result, any Error>?, Task<Void, Never>?, PostgresConnection?) =
            lock.withLock {
                guard !done else { return (nil, nil, nil) }
                done = true
                defer {
                    self.continuation = nil
                    self.connection = nil
                }
                return (self.continuation, self.operation, self.connection)
            }
        guard let continuation else { return }
        continuation.resume(throwing: error)
        operation?.cancel()
        if let connection {
            try? await connection.close()
        }
    }
}

extension PSQLError {
    /// The connection broke or could not be made, as opposed to the server refusing a
    /// statement: the database may be back on the next try.
    var isConnectionFailure: Bool {
        switch code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return true
        default:
            return false
        }
    }
}
