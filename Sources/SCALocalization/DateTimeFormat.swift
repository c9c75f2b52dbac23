import Foundation

/// A moment as a person reads it: `14 November 2023 at 22:13 UTC`, `14. November 2023, 23:13 UTC+1`.
///
/// The words (month names, the order, "at") are catalogue strings a translator edits
/// (`date.month.1`…`12`, `date.dateTime`); only the arithmetic is Foundation's, in the Gregorian
/// calendar. Time is 24-hour in every shipped language, as European banks write it.
///
/// The zone is always said, because a lock screen or an e-mail is read far from the server:
/// `UTC` when the user's zone is unknown, otherwise the offset from UTC at that moment
/// (`UTC+2` in a Paris summer), which needs no translation and cannot be misread the way
/// `CET`/`MEZ` abbreviations can.
package enum DateTimeFormat {
    /// - Parameter timeZone: the user's zone; nil shows the time in UTC and says so.
    package static func text(_ date: Date, in language: Language, timeZone: TimeZone?, catalogue: Catalogue) -> String {
        let zone = timeZone ?? TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let month = catalogue.text("date.month.\(parts.month ?? 1)", in: language)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return catalogue.text(
            "date.dateTime", in: language,
            values: [
                "day": String(parts.day ?? 1), "month": month, "year": String(parts.year ?? 0), "time": time,
                "zone": zoneName(zone, at: date),
            ])
    }

    /// `UTC`, `UTC+2`, `UTC-3`, `UTC+5:30`: the zone's offset at `date`.
    package static func zoneName(_ zone: TimeZone?, at date: Date) -> String {
        let seconds = zone?.secondsFromGMT(for: date) ?? 0
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        let sign = seconds < 0 ? "-" : "+"
        return "UTC\(sign)\(minutes / 60)" + (minutes % 60 == 0 ? "" : String(format: ":%02d", minutes % 60))
    }
}
