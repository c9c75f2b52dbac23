import PostgresNIO

/// A PostgreSQL store failure that is not a domain outcome: a bad URL, a server that cannot be
/// reached, a failed migration, or a stored value that cannot be turned back into a record
/// (the row was changed outside this store). Reported instead of crashing, so one bad row
/// fails one request.
package struct PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column holding a bad value, when that is the problem.
    package var column: String?
    /// What is wrong.
    package var reason: String

    package init(column: String? = nil, reason: String) {
        self.column = column
        self.reason = reason
    }

    package var description: String {
        if let column { return "PostgreSQL store: column '\(column)' \(reason)" }
        return "PostgreSQL store: \(reason)"
    }

    /// PostgresNIO describes its errors vaguely on purpose, lest a query's values leak into a
    /// log; at start-up the server's own message (or the socket error) is what an operator
    /// needs, and it holds no secret.
    static func connection(_ error: PSQLError, target: String) -> PostgresStoreError {
        PostgresStoreError(reason: "cannot use \(target): \(summary(of: error))")
    }

    /// The server's message and SQLSTATE, or the socket error, without the query's values.
    static func summary(of error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] {
            return error.sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
        }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}

extension PSQLError {
    /// The SQLSTATE the server answered with, if the error came from the server.
    var sqlState: String? { serverInfo?[.sqlState] }

    /// A PRIMARY KEY or UNIQUE constraint refused the row (`unique_violation`).
    var isUniqueViolation: Bool { sqlState == "23505" }

    /// A FOREIGN KEY constraint refused the row (`foreign_key_violation`).
    var isForeignKeyViolation: Bool { sqlState == "23503" }

    /// The constraint named by the server, for a constraint violation.
    var constraintName: String? { serverInfo?[.constraintName] }
}
