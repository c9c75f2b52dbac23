import SCACore

/// What the collector is told when it is asked for a factor: which try this is, and why the
/// last one did not count, so the UI can say "wrong code, 4 attempts left".
public struct AttemptContext: Sendable, Equatable {
    /// 1 for the first try of this method in this flow.
    public var number: Int
    /// Failed attempts left before the user is blocked, from the last problem answer, when known.
    public var remainingAttempts: Int?
    /// Why the last try failed: `.proofRejected` (this factor was wrong, immediate verdict) or
    /// `.authenticationFailed` (some factor was wrong, deferred verdict: all are asked again).
    public var previousFailure: ProblemCode?

    /// - Parameters:
    ///   - number: 1 for the first try of a method in a flow.
    ///   - remainingAttempts: attempts left, when the server said.
    ///   - previousFailure: the problem code of the last failed try, if any.
    public init(number: Int = 1, remainingAttempts: Int? = nil, previousFailure: ProblemCode? = nil) {
        self.number = number
        self.remainingAttempts = remainingAttempts
        self.previousFailure = previousFailure
    }
}
