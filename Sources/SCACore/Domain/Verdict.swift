/// When the server tells the client whether a proof was right.
public enum Verdict: String, Codable, Sendable, CaseIterable {
    /// Each proof is checked on arrival and a wrong one is reported at once.
    case immediate
    /// Proofs are collected and the verdict is given only when enough categories are in,
    /// so the payer does not learn which element was wrong (RTS art. 4).
    case deferred
}
