import SCACore

/// What one operation demands: how many distinct categories, which methods, which verdict mode.
package struct OperationPolicy: Sendable, Equatable {
    package var requiredCategories: Int
    package var verdict: Verdict
    /// Methods the operation accepts, before intersecting with what the user has enrolled.
    package var methods: [AuthenticationMethod]

    package init(
        requiredCategories: Int = 2, verdict: Verdict = .deferred,
        methods: [AuthenticationMethod] = AuthenticationMethod.allCases
    ) {
        self.requiredCategories = requiredCategories
        self.verdict = verdict
        self.methods = methods
    }
}
