import Foundation
import SCACore
import Synchronization

/// The TRA bands stopped as of the last completed quarter (RTS art. 20), remembered for a
/// minute instead of worked out again for every payment: that took four sums over
/// two quarters of every user's payments and fraud, and a write, per payment.
///
/// A completed quarter changes only by a fraud report about it: this instance's reports
/// refresh the entry at once (``RiskService/evaluateSuspensions(now:)`` stores what it finds);
/// another instance's are seen within ``maxAge``. A new quarter is never answered from the last.
package final class TRASuspensionCache: Sendable {
    /// How long an entry answers, on the server's clock.
    package static let maxAge: TimeInterval = 60

    private struct Entry {
        var quarter: Quarter
        var computedAt: Date
        var bands: Set<String>
    }

    private let entry = Mutex<Entry?>(nil)

    package init() {}

    /// The bands stored for `quarter`, unless older than ``maxAge`` at `now` (or from a later time).
    package func bands(for quarter: Quarter, now: Date) -> Set<String>? {
        entry.withLock { entry in
            guard let entry, entry.quarter == quarter else { return nil }
            let age = now.timeIntervalSince(entry.computedAt)
            return age >= 0 && age < Self.maxAge ? entry.bands : nil
        }
    }

    package func store(_ bands: Set<String>, for quarter: Quarter, at now: Date) {
        entry.withLock { $0 = Entry(quarter: quarter, computedAt: now, bands: bands) }
    }
}
