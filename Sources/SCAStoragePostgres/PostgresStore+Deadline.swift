import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// Runs `body` on a pooled connection, giving up after the store's deadline.
    ///
    /// While the database is unreachable the pool keeps trying to connect, and a lease would
    /// wait for it without end; a connection whose peer went silent would wait on its socket.
    /// So the operation races a timer in a task group. When the timer wins, the operation is
    /// cancelled (which withdraws a waiting lease) and the connection it holds, if any, is
    /// closed: a statement cannot be taken back once sent, and a connection that did not
    /// answer in time is not trusted with another request. Closing it also fails the statement
    /// at once, so the group ends at the deadline rather than when the socket gives up. A
    /// transaction cut this way is rolled back by the server, so either all of it happened or
    /// none of it did; a single statement may have been applied with its answer lost, as with
    /// any network failure.
    ///
    /// - Throws: ``StoreUnavailable`` on timeout or when the connection fails; otherwise what
    ///   `body` threw, unchanged (callers match constraint violations on it).
    func leased<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let held = HeldConnection()
        let timeout = self.timeout
        let client = self.client
        do {
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask {
                    do {
                        return try await client.withConnection { connection in
                            held.set(connection)
                            defer { held.set(nil) }
                            return try await body(connection)
                        }
                    } catch where !held.leased && !(error is CancellationError) {
                        // No connection could be had at all (the pool gave up connecting,
                        // or was closed): whatever the pool's reason, the store is down.
                        throw StoreUnavailable(reason: "no database connection: \(type(of: error))")
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                // The first to finish decides; `nil` is the timer.
                guard let first = try await group.next(), let result = first else {
                    if let connection = held.take() {
                        try? await connection.close()
                    }
                    throw StoreUnavailable(reason: "no answer from the database within \(timeout)")
                }
                return result
            }
        } catch let error as PSQLError where error.isConnectionFailure {
            throw StoreUnavailable(reason: "database connection failed: \(PostgresStoreError.summary(of: error))")
        }
    }
}

/// The connection an operation holds, so that the timer can close it.
private final class HeldConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var wasLeased = false

    /// Whether a connection was ever leased: an error before that came from the pool.
    var leased: Bool { lock.withLock { wasLeased } }

    func set(_ connection: PostgresConnection?) {
        lock.withLock {
            self.connection = connection
            if connection != nil { wasLeased = true }
        }
    }

    func take() -> PostgresConnection? {
        lock.withLock {
            defer { connection = nil }
            return connection
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
