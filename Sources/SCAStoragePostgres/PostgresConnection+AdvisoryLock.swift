import Logging
import PostgresNIO

extension PostgresConnection {
    /// Takes one of this schema's advisory locks (`PostgresMigrations.migrationLock`,
    /// `signingKeyLock`, `auditLock`, `rateBudgetLock`, `riskAggregateLock`) until the current transaction ends.
    /// The key mixes in the schema's name, so stores on different schemas of one database never
    /// wait for each other, while every instance on the same schema does.
    func lockSchema(_ lock: Int32, logger: Logger) async throws {
        _ = try await rows(
            """
            SELECT pg_advisory_xact_lock(
                \(PostgresMigrations.lockNamespace), hashtext(coalesce(current_schema(), '')) # \(lock)
            )
            """,
            logger: logger)
    }
}
