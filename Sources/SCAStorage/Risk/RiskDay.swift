import Foundation

/// UTC days numbered from the Unix epoch: the buckets the fraud reports are summed in.
///
/// A fraud rate is asked for over any `[from, to)` (the rolling 90 days up to now, a quarter),
/// so a sum over day buckets alone would move the window's edges to midnight and change the
/// rate. ``span(from:to:)`` keeps the answer exact: whole days come from their buckets, and the
/// parts of a day at either edge are read from that day's reports, never more than a day each.
package enum RiskDay {
    package static let seconds: Double = 86_400

    /// The day holding the instant `unixSeconds`: `day * 86_400 <= unixSeconds < (day + 1) *
    /// 86_400`, checked on the products (whole numbers, exact in a `Double`) so that an instant
    /// one rounding step before midnight never lands in the next day's bucket.
    package static func number(containing unixSeconds: Double) -> Int64 {
        var day = Int64((unixSeconds / seconds).rounded(.down))
        if Double(day) * seconds > unixSeconds { day -= 1 }
        if Double(day + 1) * seconds <= unixSeconds { day += 1 }
        return day
    }

    /// `[from, to)` as whole days (their buckets) and the instants left at either edge (read
    /// from the rows), which together cover it exactly once.
    /// - Returns: `days` may be empty; each edge is `[lower, upper)` and may be empty.
    package static func span(from: Double, to: Double) -> (days: Range<Int64>, edges: [(lower: Double, upper: Double)]) {
        guard from < to else { return (0..<0, []) }
        // The first midnight at or after `from`, and the last at or before `to`.
        var first = number(containing: from)
        if Double(first) * seconds < from { first += 1 }
        let last = number(containing: to)
        guard first < last else { return (0..<0, [(from, to)]) }
        return (first..<last, [(from, Double(first) * seconds), (Double(last) * seconds, to)])
    }
}
