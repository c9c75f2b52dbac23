import Foundation

/// `GET /admin/v1/risk/activity`: the exemptions the risk engine granted in a quarter, week by
/// week, and the TRA bands it stopped or resumed (RTS art. 20 and 21), each with the audit
/// entry that records why.
package struct RiskActivity: Codable, Sendable, Equatable {
    package var quarter: String
    /// The weeks (Monday to Sunday, UTC) that overlap the quarter, oldest first; the first and
    /// the last count only their days inside it.
    package var weeks: [Week]
    /// The newest TRA stops and resumptions, whatever the quarter, newest first.
    package var traChanges: [TRAChange]

    package init(quarter: String, weeks: [Week], traChanges: [TRAChange]) {
        self.quarter = quarter
        self.weeks = weeks
        self.traChanges = traChanges
    }

    /// The payments one week let through without SCA.
    package struct Week: Codable, Sendable, Equatable {
        /// Its Monday, `2026-01-05`.
        package var start: String
        /// Per exemption a payment can go under (``Exemption`` raw values, each present, 0
        /// included).
        package var granted: [String: Int]

        package init(start: String, granted: [String: Int]) {
            self.start = start
            self.granted = granted
        }
    }

    /// One TRA band stopped or resumed.
    package struct TRAChange: Codable, Sendable, Equatable {
        package var time: Date
        /// `credit_transfer:500`: the type and the band's amount in EUR.
        package var band: String
        /// Stopped (`true`), or resumed.
        package var stopped: Bool
        /// The completed quarters the decision read: the two above the reference rate for a
        /// stop, the one at or below it for a resumption.
        package var quarters: [String]
        /// The audit entry that records it.
        package var sequence: Int64

        package init(time: Date, band: String, stopped: Bool, quarters: [String], sequence: Int64) {
            self.time = time
            self.band = band
            self.stopped = stopped
            self.quarters = quarters
            self.sequence = sequence
        }
    }
}
