/// The life cycle of a challenge. Every state but `pending` is final.
public enum ChallengeState: String, Codable, Sendable, CaseIterable {
    case pending
    case completed
    case failed
    case expired
    case cancelled
}
