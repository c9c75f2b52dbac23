
/// What checking one proof found.
enum ProofEvaluation: Sendable, Equatable {
    case right
    /// A wrong proof.
    case wrong
    /// A right one-time code, or signature, presented again: its TOTP step is burnt, its
    /// delivered code used, its signature seen. Refused (once is once), but not a guess.
    case replayed
}
