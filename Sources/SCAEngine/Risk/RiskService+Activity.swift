import Foundation
import SCACore
import SCAStorage

extension RiskService {
    /// The exemptions a payment can go under (account information's is no payment's).
    package static let paymentExemptions = Exemption.allCases.filter { $0 != .accountInfo180d }

    /// The most TRA changes ``activity(quarter:)`` lists.
    package static let traChangesListed = 20

    /// The exemptions granted in `quarter`, week by week (from the index of exempted payments),
    /// and the newest TRA stops and resumptions (from the audit trail, which records each with
    /// the quarters it read).
    package func activity(quarter: Quarter) async throws -> RiskActivity {
        let tallies = try await store.exemptionsGranted(from: quarter.start, to: quarter.end)
        let firstDay = RiskDay.number(containing: quarter.start.unixSeconds)
        let lastDay = RiskDay.number(containing: quarter.end.unixSeconds) - 1
        var weeks: [RiskActivity.Week] = []
        var monday = Self.monday(of: firstDay)
        while monday <= lastDay {
            var granted = Dictionary(uniqueKeysWithValues: Self.paymentExemptions.map { ($0.rawValue, 0) })
            for tally in tallies where (monday..<monday + 7).contains(tally.day) {
                granted[tally.exemption.rawValue, default: 0] += tally.count
            }
            weeks.append(RiskActivity.Week(start: Self.dayText(monday), granted: granted))
            monday += 7
        }

        var changes: [RiskActivity.TRAChange] = []
        for event in [AuditEvent.traSuspended, .traResumed] {
            let entries = try await store.auditEntries(
                matching: AuditFilter(event: event.rawValue), .before(nil), limit: Self.traChangesListed)
            for entry in entries {
                let details = entry.draft.details
                let quarters = (details["quarters"] ?? details["quarter"] ?? "").split(separator: ",").map(String.init)
                changes.append(
                    RiskActivity.TRAChange(
                        time: entry.draft.time, band: details["band"] ?? "", stopped: event == .traSuspended,
                        quarters: quarters, sequence: entry.sequence))
            }
        }
        changes.sort { $0.sequence > $1.sequence }
        return RiskActivity(
            quarter: quarter.description, weeks: weeks, traChanges: Array(changes.prefix(Self.traChangesListed)))
    }

    /// The Monday on or before `day` (``RiskDay`` numbering: day 0, 1970-01-01, was a
    /// Thursday, so day 4 a Monday).
    static func monday(of day: Int64) -> Int64 {
        day - ((day - 4) % 7 + 7) % 7
    }

    /// `2026-01-05`.
    static func dayText(_ day: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(day) * RiskDay.seconds))
    }
}
