/// Thrown by ``ChallengeService``'s `record` when the proof's commit found its one-time factor
/// used (or replaced) since it was read, and so changed nothing: the proof is judged again on
/// the factor as it now is.
struct FactorUsedMeanwhile: Error, Sendable {}
