import SCACore

/// What one operation demands: how many distinct categories, which methods, which verdict mode.
public struct OperationPolicy: Sendable, Equatable {
    public var requiredCategories: Int
    public var verdict: Verdict
    /// Methods the operation accepts, before intersecting with what the user has enrolled.
    public var methods: [AuthenticationMethod]

    public init(
        requiredCategories: Int = 2, verdict: Verdict = .deferred,
        methods: [AuthenticationMethod] = AuthenticationMethod.allCases
    ) {
        self.requiredCategories = requiredCategories
        self.verdict = verdict
        self.methods = methods
    }
}
