import Foundation

/// How long rows that no check needs any more are kept, and how long the audit trail stays in
/// the database before it is archived and cut (docs/operations.md, Retention).
///
/// The defaults keep what the RTS and support need: a challenge (with its amount and payee)
/// for 90 days after it ends, so the console and the account page still show a quarter's
/// payments; sessions, deliveries and activation codes for 30 days after they end. The audit
/// trail is never cut unless `audit.retention` says so: how long evidence is kept is the bank's
/// decision (often five years or more), not a default's.
package struct RetentionSettings: Sendable, Equatable {
    package var challenges: TimeInterval = 90 * 86_400
    package var sessions: TimeInterval = 30 * 86_400
    package var webhookDeliveries: TimeInterval = 30 * 86_400
    package var activationCodes: TimeInterval = 30 * 86_400
    /// Seconds between two retention passes.
    package var passInterval = 300
    /// nil: the audit trail stays whole in the database.
    package var audit: TimeInterval?
    /// Where archived audit entries are written; nil: `<dataDir>/audit-archive`.
    package var auditArchiveDirectory: String?

    package init() {}

    /// The shortest age a retention setting accepts: what ends is kept at least a day, for
    /// support to look at.
    static let shortestAge: TimeInterval = 86_400

    /// An age such as `90d` or `36h`, at least a day.
    static func age(_ value: String, key: String) throws -> TimeInterval {
        guard let age = try ServerConfiguration.rotationPeriod(value, key: key) else {
            throw ConfigurationError("\(key) must be a number of days or hours such as 90d or 36h, got \"\(value)\"")
        }
        guard age >= shortestAge else { throw ConfigurationError("\(key) must be at least 1d, got \(value)") }
        return age
    }

    /// `off`, or an age of at least 30 days: a shorter audit retention is a typo, not a policy.
    static func auditAge(_ value: String, key: String) throws -> TimeInterval? {
        guard let age = try ServerConfiguration.rotationPeriod(value, key: key) else { return nil }
        guard age >= 30 * 86_400 else { throw ConfigurationError("\(key) must be off or at least 30d, got \(value)") }
        return age
    }

    static func text(_ age: TimeInterval?) -> String {
        age.map { "`\(ServerConfiguration.rotationPeriodText($0))`" } ?? "`off`"
    }
}
