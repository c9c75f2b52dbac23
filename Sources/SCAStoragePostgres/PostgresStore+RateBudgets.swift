import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// One transaction that first takes this schema's rate-budget advisory lock, then deletes a
    /// bounded batch of expired uses, reads each budget's recent uses, applies the rule and counts the uses only
    /// on a grant: consumers from every instance on the database are decided one after the
    /// other, so of N racing for the last K uses exactly K are granted. (Row locks would not
    /// guard a budget that has no rows yet; the advisory lock does.)
    package func consumeRateBudgets(_ budgets: [RateBudget], now: Date) async throws -> RateDecision {
        let budgets = RateBudget.distinct(budgets)
        return try await transaction { [self] connection in
            try await connection.lockSchema(PostgresMigrations.rateBudgetLock, logger: logger)
            // Housekeeping, bounded (`RateBudget.expiredUsesToDelete`): uses that have left their
            // window count for nothing.
            _ = try await connection.rows(
                """
                DELETE FROM rate_events WHERE ctid IN (
                    SELECT ctid FROM rate_events WHERE expires_at <= \(now.unixSeconds)
                    LIMIT \(RateBudget.expiredUsesToDelete(consuming: budgets.count))
                )
                """,
                logger: logger)
            var recentUses: [String: [Date]] = [:]
            for budget in budgets {
                recentUses[budget.key] = try await connection.rows(
                    """
                    SELECT at FROM rate_events
                    WHERE budget_key = \(budget.key) AND at > \(now.addingTimeInterval(-budget.window).unixSeconds)
                    ORDER BY at DESC LIMIT \(max(budget.limit, 1))
                    """,
                    logger: logger
                ).map { try Columns($0).date("at") }
            }
            let decision = RateBudget.decide(budgets, recentUses: recentUses, now: now)
            guard decision == .granted else { return decision }
            for budget in budgets {
                _ = try await connection.rows(
                    """
                    INSERT INTO rate_events (budget_key, at, expires_at)
                    VALUES (\(budget.key), \(now.unixSeconds), \(now.addingTimeInterval(budget.window).unixSeconds))
                    """,
                    logger: logger)
            }
            return decision
        }
    }
}
