import Foundation
import Synchronization

/// The last hour of a few counters, minute by minute, for the console's live overview: fed
/// where ``ServerMetrics`` counts the same events, so its figures are the ones `/metrics`
/// exports, kept per instance as those counters are.
///
/// Each series is a ring of 60 one-minute slots, each tagged with its minute; a slot whose tag
/// is not the minute asked about counts nothing. So an idle instance needs no sweeper, and
/// memory stays fixed however long it runs.
package final class ActivityHistory: Sendable {
    /// What the overview draws.
    package enum Series: String, CaseIterable, Sendable {
        case challengesCreated = "challenges_created"
        case challengesCompleted = "challenges_completed"
        /// Proofs refused: a wrong element, or a code or signature used before. A guessing
        /// attack shows here first.
        case failedProofs = "failed_proofs"
        case lockouts
        /// One-time codes sent by SMS or e-mail.
        case codesSent = "codes_sent"
        /// Sends and challenges refused by a rate budget.
        case budgetRefusals = "budget_refusals"
    }

    /// The minutes kept.
    package static let minutes = 60

    private struct Slot {
        var minute: Int64 = .min
        var count = 0
    }

    private let now: @Sendable () -> Date
    private let slots: Mutex<[Series: [Slot]]>

    package init(now: @escaping @Sendable () -> Date) {
        self.now = now
        slots = Mutex(Dictionary(uniqueKeysWithValues: Series.allCases.map { ($0, Array(repeating: Slot(), count: Self.minutes)) }))
    }

    /// Counts one event of `series` in the current minute.
    package func record(_ series: Series) {
        let minute = Self.minute(of: now())
        let index = Self.index(of: minute)
        slots.withLock { all in
            if all[series]![index].minute != minute { all[series]![index] = Slot(minute: minute) }
            all[series]![index].count += 1
        }
    }

    /// The counts of the last hour, oldest minute first, the current (unfinished) one last.
    package func lastHour() -> ActivitySnapshot {
        let current = Self.minute(of: now())
        let first = current - Int64(Self.minutes - 1)
        let counts = slots.withLock { all in
            all.mapValues { ring in
                (first...current).map { minute in
                    let slot = ring[Self.index(of: minute)]
                    return slot.minute == minute ? slot.count : 0
                }
            }
        }
        return ActivitySnapshot(firstMinute: Date(timeIntervalSince1970: TimeInterval(first * 60)), counts: counts)
    }

    private static func minute(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 60).rounded(.down))
    }

    private static func index(of minute: Int64) -> Int {
        Int(((minute % Int64(minutes)) + Int64(minutes)) % Int64(minutes))
    }
}

/// An hour of per-minute counts.
package struct ActivitySnapshot: Sendable, Equatable {
    /// The start of the oldest minute.
    package var firstMinute: Date
    /// For each series, 60 counts, oldest minute first.
    package var counts: [ActivityHistory.Series: [Int]]
}
