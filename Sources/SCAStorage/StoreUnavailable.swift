/// The database did not answer in time or cannot be reached: nothing is known to have changed,
/// and the same call may succeed once the database is back. The server answers it with
/// `503 server.unavailable` and `Retry-After` rather than an internal error.
public struct StoreUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// What happened, for logs (never shown to clients).
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "store unavailable: \(reason)" }
}
