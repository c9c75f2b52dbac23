import Foundation

/// What a retention pass may delete: rows that no check needs any more, each kind older than
/// its cut-off. A pass deletes at most `batchSize` rows of each kind, so that a backlog is worked
/// off over several passes without one long write holding every other writer back.
public struct RetentionPlan: Sendable, Equatable {
    /// Challenges that ended (completed, failed, expired, cancelled) or ran out before this,
    /// with their one-time codes; never one a consent or a decoupled operation still names.
    public var challengesEndedBefore: Date
    /// Sessions revoked, or last used, before this and holding no refresh token still valid,
    /// with their refresh tokens.
    public var sessionsEndedBefore: Date
    /// Webhook deliveries delivered or given up before this.
    public var deliveriesFinishedBefore: Date
    /// Activation codes that expired or were used before this.
    public var activationCodesEndedBefore: Date
    /// Now: rate events, refresh tokens and consumed-token marks past their own expiry, and
    /// unknown-address counters back at rest, go at once (they decide nothing any more).
    public var now: Date
    public var batchSize: Int

    public init(
        challengesEndedBefore: Date, sessionsEndedBefore: Date, deliveriesFinishedBefore: Date,
        activationCodesEndedBefore: Date, now: Date, batchSize: Int = 5_000
    ) {
        self.challengesEndedBefore = challengesEndedBefore
        self.sessionsEndedBefore = sessionsEndedBefore
        self.deliveriesFinishedBefore = deliveriesFinishedBefore
        self.activationCodesEndedBefore = activationCodesEndedBefore
        self.now = now
        self.batchSize = batchSize
    }
}
