import SCACore

/// What a judged proof does to a challenge, and the categories it has, as pure functions: the
/// challenge service decides with these, the backends only store the result.
extension ChallengeRecord {
    /// The categories collected in the current round: accepted proofs, rejected ones not yet
    /// revealed (deferred verdict), and what proofs proved besides their method's category.
    package var collectedCategories: Set<Category> {
        Set((acceptedMethods + rejectedMethods).map(\.category)).union(extraCategories)
    }

    /// The categories accepted proofs proved (with no rejected proof, every collected one).
    package var acceptedCategories: Set<Category> {
        Set(acceptedMethods.map(\.category)).union(rejectedMethods.isEmpty ? extraCategories : [])
    }

    /// Adds one judged proof. `extra` is a category the proof proved (or, wrong under the
    /// deferred verdict, claimed) besides its method's own; it counts once, and never for a
    /// wrong proof under the immediate verdict, which only counts a failure.
    package mutating func collect(_ method: AuthenticationMethod, passed: Bool, extra: Category? = nil) {
        if pendingMethod == method { pendingMethod = nil }
        if passed {
            if !acceptedMethods.contains(method) { acceptedMethods.append(method) }
        } else if verdict == .immediate {
            failedAttempts += 1
            return
        } else {
            rejectedMethods.append(method)
        }
        if let extra, extra != method.category, !extraCategories.contains(extra) { extraCategories.append(extra) }
    }

    /// A deferred round that held a wrong proof: everything collected is discarded, one failure
    /// counted, and the user may start again on the same challenge.
    package mutating func discardRound() {
        acceptedMethods = []
        rejectedMethods = []
        extraCategories = []
        failedAttempts += 1
    }

    /// The token's `amr`: the accepted methods in order, `passkey_uv` after `passkey` when the
    /// passkey's authenticator verified the user (the only proof with an extra category).
    package var authenticationMethodReferences: [AuthenticationMethod] {
        acceptedMethods.flatMap { method -> [AuthenticationMethod] in
            method == .passkey && !extraCategories.isEmpty ? [.passkey, .passkeyUserVerified] : [method]
        }
    }

    /// A `login` challenge opened without a user for a discoverable passkey: the assertion
    /// names the user. (A decoy has no user either, but always has its decoy subject.)
    package var isDiscoverable: Bool {
        userID == nil && decoy == nil && methods == [.passkey]
    }
}
