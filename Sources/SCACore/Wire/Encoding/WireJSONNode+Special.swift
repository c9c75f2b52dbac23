import Foundation

extension WireJSONNode {
    /// 1583-01-01T00:00:00Z, the first whole year in which Foundation's calendar is Gregorian
    /// (before October 1582 it counts Julian days), in seconds since 1970.
    static let firstGregorianSecond: Int64 = -12_212_553_600
    /// 10000-01-01T00:00:00Z: from here on years have five digits.
    static let firstFiveDigitYearSecond: Int64 = 253_402_300_800
    /// Seconds from 1970 to 2001, the epoch `Date` counts from.
    static let referenceDateSeconds: Double = 978_307_200

    /// The node of a value Foundation's `JSONEncoder` treats specially instead of asking it to
    /// encode itself (dates, data, and the types whose text Foundation is asked for), or `nil`.
    /// Types are compared by metadata, which costs far less than Foundation's dynamic casts.
    static func special<T: Encodable>(_ value: T) throws -> WireJSONNode? {
        if T.self == Date.self, let date = value as? Date { return try self.date(date) }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == Double.self || T.self == Float.self || T.self == Decimal.self || T.self == URL.self {
            return try foundation(value)
        }
        return nil
    }

    /// A date as `.iso8601` writes it: whole seconds, the fraction dropped (rounded down).
    static func date(_ date: Date) throws -> WireJSONNode {
        // Rounded down from the reference date, where `Date` keeps its value, so that no
        // conversion to 1970 can carry a fraction over a second.
        let whole = date.timeIntervalSinceReferenceDate.rounded(.down) + referenceDateSeconds
        if whole >= Double(firstGregorianSecond), whole < Double(firstFiveDigitYearSecond) {
            return .date(seconds: Int64(whole))
        }
        return try foundation(date)
    }

    /// Foundation's own text for one value, for the formats not repeated here.
    static func foundation<T: Encodable>(_ value: T) throws -> WireJSONNode {
        .raw(Array(try WireJSON.sharedEncoder.encode(value)))
    }
}
