import SCACore

extension Problem {
    /// The database did not answer within `databaseTimeout` (or the connection to it broke):
    /// nothing is known to have changed, and the same request may succeed once it is back.
    static let serverUnavailable = Problem(
        status: 503, code: .serverUnavailable, title: "Service unavailable",
        detail: "The database is not answering; try again shortly.", retryAfter: 5)
}
