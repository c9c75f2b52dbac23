import Foundation
import GRDB
import SCAStorage

extension SQLiteStore {
    /// One write transaction: a bounded batch of expired uses is deleted, each budget's recent uses read, the
    /// rule applied, and the uses counted only on a grant. SQLite runs one write transaction
    /// at a time on the file, so concurrent consumers, from this process or another on the
    /// same file, are decided one after the other.
    package func consumeRateBudgets(_ budgets: [RateBudget], now: Date) async throws -> RateDecision {
        let budgets = RateBudget.distinct(budgets)
        return try await write { db in
            // Housekeeping, bounded (`RateBudget.expiredUsesToDelete`): uses that have left their
            // window count for nothing.
            try db.cachedStatement(
                sql: """
                    DELETE FROM rate_events WHERE rowid IN (
                        SELECT rowid FROM rate_events WHERE expires_at <= ? LIMIT ?
                    )
                    """).execute(
                arguments: [now.unixSeconds, RateBudget.expiredUsesToDelete(consuming: budgets.count)])
            var recentUses: [String: [Date]] = [:]
            for budget in budgets {
                recentUses[budget.key] = try db.cachedStatement(
                    sql: "SELECT at FROM rate_events WHERE budget_key = ? AND at > ? ORDER BY at DESC LIMIT ?"
                ).fetchAll(arguments: [budget.key, now.addingTimeInterval(-budget.window).unixSeconds, max(budget.limit, 1)]) {
                    try $0.date("at")
                }
            }
            let decision = RateBudget.decide(budgets, recentUses: recentUses, now: now)
            guard decision == .granted else { return decision }
            for budget in budgets {
                try db.cachedStatement(
                    sql: "INSERT INTO rate_events (budget_key, at, expires_at) VALUES (?, ?, ?)").execute(
                    arguments: [budget.key, now.unixSeconds, now.addingTimeInterval(budget.window).unixSeconds]
                )
            }
            return decision
        }
    }
}
