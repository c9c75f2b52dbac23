import SCACore
import SCAStorage

/// What recording one judged proof on one version of its challenge comes to: the write, and
/// what to answer once it is committed.
struct RecordStep: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Closed (or expired) while the proof was checked: nothing collected.
        case closed(ChallengeState)
        /// Immediate verdict, wrong proof.
        case rejected
        /// Deferred verdict: the round held a wrong proof and was discarded.
        case failed
        case completed
        case partial(collected: [Category], remaining: Int)
    }

    let commit: ProofCommit
    /// The challenge as the write leaves it.
    let challenge: ChallengeRecord
    let outcome: Outcome
    /// A completing proof's tokens, valid once the write commits.
    let tokens: TokenResponse?
    /// The audit events the write appends, counted once it commits.
    let events: [PreparedAuditEvent]
    /// The consent the write decides, if it wins its own compare-and-set.
    var consent: ConsentDecision? = nil
}
