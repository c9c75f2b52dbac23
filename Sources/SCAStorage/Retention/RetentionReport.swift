/// How many rows of each kind a retention pass deleted.
public struct RetentionReport: Sendable, Equatable {
    public var challenges = 0
    public var sessions = 0
    public var refreshTokens = 0
    public var consumedTokens = 0
    public var rateEvents = 0
    public var webhookDeliveries = 0
    public var activationCodes = 0
    public var unknownAddresses = 0

    public init() {}

    /// Every row deleted.
    public var total: Int {
        challenges + sessions + refreshTokens + consumedTokens + rateEvents + webhookDeliveries + activationCodes
            + unknownAddresses
    }

    /// The counts by kind, for a log line or the audit entry's details.
    public var byKind: [String: String] {
        [
            "challenges": "\(challenges)", "sessions": "\(sessions)", "refreshTokens": "\(refreshTokens)",
            "consumedTokens": "\(consumedTokens)", "rateEvents": "\(rateEvents)",
            "webhookDeliveries": "\(webhookDeliveries)", "activationCodes": "\(activationCodes)",
            "unknownAddresses": "\(unknownAddresses)",
        ]
    }
}
