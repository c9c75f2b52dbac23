import Foundation

/// `GET /admin/v1/activity`: the last hour of the live overview's counters on the instance
/// that answers, minute by minute.
package struct ActivityResponse: Codable, Sendable, Equatable {
    /// The start of the oldest minute; the last count is the current, unfinished minute.
    package var firstMinute: Date
    /// Per series (`challenges_created`, `challenges_completed`, `failed_proofs`, `lockouts`,
    /// `codes_sent`, `budget_refusals`), 60 counts, oldest first.
    package var series: [String: [Int]]

    package init(firstMinute: Date, series: [String: [Int]]) {
        self.firstMinute = firstMinute
        self.series = series
    }
}
