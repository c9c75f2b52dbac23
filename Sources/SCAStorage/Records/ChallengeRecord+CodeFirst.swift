import SCACore

// Sign up or in: the code of the typed address first, for everybody.
extension ChallengeRecord {
    /// The methods the challenge offers now: every one of `methods`, except that a
    /// sign-up-or-in challenge offers only the code of the typed address until that code's
    /// category is collected. So its first answer is the same for a known user, a new address
    /// and a decoy, and a known user's other methods show only once the code is proven (under
    /// the deferred verdict, once it is collected, right or wrong, as nothing is revealed
    /// before the verdict). Answers, proofs and code requests all go by this list.
    package var offeredMethods: [AuthenticationMethod] {
        guard let code = decoy?.codeFirst, !collectedCategories.contains(code.category) else { return methods }
        return [code]
    }
}
