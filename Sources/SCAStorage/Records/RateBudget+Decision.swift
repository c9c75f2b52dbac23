import Foundation

/// The rate-limit rule itself, as pure code: every backend loads the recent uses of the
/// budgets under its own lock, asks `decide`, and counts one use in each budget only when the
/// answer is `granted`. So the rule is written once whatever the database, and a refused
/// request never spends what it asked for.
extension RateBudget {
    /// The budgets to check, each key once (the first occurrence wins): a key counted twice in
    /// one request would spend two uses.
    package static func distinct(_ budgets: [RateBudget]) -> [RateBudget] {
        var seen = Set<String>()
        return budgets.filter { seen.insert($0.key).inserted }
    }

    /// How many expired uses a consume of `count` budgets deletes at most on its way. Expired
    /// uses count for nothing (reads look only inside each window), so this is housekeeping:
    /// bounded, so no request pays for a backlog, and at least twice what the consume adds
    /// (one use per budget), so deleting keeps ahead of adding and the table stays near its
    /// live uses.
    package static func expiredUsesToDelete(consuming count: Int) -> Int {
        max(64, 2 * count)
    }

    /// The earliest time this budget has room, or nil when it has room now.
    /// - Parameter recentUses: times of the uses still inside the window at `now`, newest first
    ///   (more than `limit` of them are not needed).
    package func freesAt(recentUses: [Date], now: Date) -> Date? {
        let live = recentUses.filter { $0 > now.addingTimeInterval(-window) }
        guard live.count >= limit else { return nil }
        // With `limit` uses in the window, room comes back when the oldest of the newest
        // `limit` leaves it. (A limit below 1 never has room: a whole window, then ask again.)
        guard limit >= 1 else { return now.addingTimeInterval(window) }
        return live.sorted(by: >)[limit - 1].addingTimeInterval(window)
    }

    /// Grants only if every budget has room; refuses with the time until all of those that
    /// were spent have room again.
    /// - Parameter recentUses: per budget key, the times of its uses still inside its window,
    ///   newest first; a missing key has none.
    package static func decide(_ budgets: [RateBudget], recentUses: [String: [Date]], now: Date) -> RateDecision {
        var scopes: [String] = []
        var latest: Date?
        for budget in distinct(budgets) {
            guard let frees = budget.freesAt(recentUses: recentUses[budget.key] ?? [], now: now) else { continue }
            if !scopes.contains(budget.scope) { scopes.append(budget.scope) }
            latest = max(latest ?? frees, frees)
        }
        guard let latest else { return .granted }
        return .refused(scopes: scopes, retryAfter: max(1, Int(latest.timeIntervalSince(now).rounded(.up))))
    }
}
