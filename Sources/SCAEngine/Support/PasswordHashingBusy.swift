/// The password hashing pool refused a job because its queue was full. Nothing was evaluated,
/// so a caller may give back what it reserved for the job (a counted attempt) and the client
/// may simply try again.
///
/// A domain error, not an HTTP one: the pool knows nothing of responses. The HTTP edge
/// (`ProblemMiddleware`) answers it as `503 server.busy` with `Retry-After`.
package struct PasswordHashingBusy: Error, Equatable, CustomStringConvertible {
    package init() {}

    package var description: String { "too many password checks in progress; try again shortly" }
}
