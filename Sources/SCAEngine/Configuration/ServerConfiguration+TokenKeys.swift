import Foundation

// Signing-key rotation: how `tokenKeys.rotationPeriod` is written, read and checked.
extension ServerConfiguration {
    /// The shortest and longest rotation periods: a day leaves room for the pre-publication
    /// window and the retention of the key before; ten years is "never" with a number.
    static let rotationPeriodBounds: ClosedRange<TimeInterval> = 86_400...(3_650 * 86_400)

    /// `off`, or a whole number of days (`90d`) or hours (`36h`).
    /// - Throws: `ConfigurationError` naming `key` for anything else.
    static func rotationPeriod(_ value: String, key: String) throws -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        if text == "off" { return nil }
        let units: [Character: TimeInterval] = ["d": 86_400, "h": 3_600]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0 else {
            throw ConfigurationError("\(key) must be off, or a number of days or hours such as 90d or 36h, got \"\(value)\"")
        }
        return TimeInterval(count) * unit
    }

    /// A period as ``rotationPeriod(_:key:)`` reads it: days when whole, else hours.
    static func rotationPeriodText(_ period: TimeInterval) -> String {
        let hours = Int(period / 3_600)
        return hours.isMultiple(of: 24) ? "\(hours / 24)d" : "\(hours)h"
    }

    /// The period must leave each key signing for longer than the window it was published ahead
    /// and the time the key before stays published.
    func validateTokenKeysRotationPeriod() throws {
        guard let period = tokenKeysRotationPeriod else { return }
        guard Self.rotationPeriodBounds.contains(period) else {
            throw ConfigurationError(
                "tokenKeys.rotationPeriod must be between 1d and 3650d, got \(Self.rotationPeriodText(period))")
        }
        let schedule = SigningKeySchedule(configuration: self)
        guard period > schedule.prepublication + schedule.retention else {
            throw ConfigurationError(
                "tokenKeys.rotationPeriod (\(Self.rotationPeriodText(period))) must be longer than the pre-publication window "
                    + "and accessTokenLifetime together (\(Int(schedule.prepublication + schedule.retention)) seconds)")
        }
    }
}
