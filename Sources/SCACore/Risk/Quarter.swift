import Foundation

/// A calendar quarter in UTC (`2026Q4`): the period fraud rates are reported and compared
/// over (RTS art. 19–21). Pure arithmetic, no clock.
package struct Quarter: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let year: Int
    /// 1 to 4.
    package let number: Int

    package init?(year: Int, number: Int) {
        guard (1970...9999).contains(year), (1...4).contains(number) else { return nil }
        self.year = year
        self.number = number
    }

    /// Parses `2026Q4` (the `Q` in either case); nil for anything else. A quarter read from
    /// input has a quarter before it and after it (a report reads the one before, and a
    /// quarter ends where the next starts), so its year is 1971 to 9998.
    package init?(_ text: String) {
        let parts = text.uppercased().split(separator: "Q", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 1,
            parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII),
            let year = Int(parts[0]), let number = Int(parts[1]), (1971...9998).contains(year)
        else { return nil }
        self.init(year: year, number: number)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The quarter `date` falls in.
    package static func containing(_ date: Date) -> Quarter {
        let parts = utc.dateComponents([.year, .month], from: date)
        return Quarter(year: parts.year!, number: (parts.month! - 1) / 3 + 1)!
    }

    /// Its first instant (inclusive).
    package var start: Date {
        Self.utc.date(from: DateComponents(year: year, month: (number - 1) * 3 + 1, day: 1))!
    }

    /// The first instant of the next quarter (exclusive end).
    package var end: Date { next.start }

    package var next: Quarter {
        number == 4 ? Quarter(year: year + 1, number: 1)! : Quarter(year: year, number: number + 1)!
    }

    package var previous: Quarter {
        number == 1 ? Quarter(year: year - 1, number: 4)! : Quarter(year: year, number: number - 1)!
    }

    package var description: String { "\(year)Q\(number)" }

    package static func < (lhs: Quarter, rhs: Quarter) -> Bool {
        (lhs.year, lhs.number) < (rhs.year, rhs.number)
    }
}
