import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// The running aggregates of the risk engine (v4-risk-aggregates), moved in the transaction that
// authorises a payment or records a fraud report (see SQLiteStore+RiskAggregates.swift for the
// rows kept). A payment's running totals start from the payment committed before it, so the
// updates take `riskAggregateLock` as the transaction's last lock but the audit chain's: every
// other lock (the user's risk state, the payment row) is taken before it, and the audit lock,
// taken by the append that ends a transaction, only after it; so no two transactions wait on
// each other in a circle, and the rows updated under it are ones only this lock's holder changes.
extension PostgresStore {
    /// Adds the authorised `payment` to the running aggregates, inside the transaction that
    /// authorised it; called last in that transaction.
    func addToRiskAggregates(_ payment: RiskPaymentRecord, _ connection: PostgresConnection) async throws {
        guard let authorisedAt = payment.authorisedAt?.unixSeconds else { return }
        // Unless a payment at the same time or later is at least as large, this one takes the
        // place of the run before it that is not larger (see SQLiteStore+RiskAggregates.swift);
        // payments authorised later that committed first get this one added, so the totals
        // stay in time order whatever order the transactions commit in. One statement
        // (`sca_add_risk_aggregates`, v16-risk-aggregate-function), which takes the lock first.
        _ = try await connection.rows(
            """
            SELECT sca_add_risk_aggregates(
                \(payment.challengeID), \(payment.userID), \(payment.type.rawValue), \(payment.amountMinor),
                \(payment.fraudRateVolumeMinor), \(authorisedAt), \(payment.payeeKey), \(payment.clientAddress))
            """, logger: logger)
    }

    /// The running totals monitoring reads for `query` (``RiskHistoryTotals``), in one statement.
    func riskHistoryTotals(_ query: RiskHistoryQuery) async throws -> RiskHistoryTotals {
        let (user, since) = (query.userID, query.since.unixSeconds)
        let (hourFrom, dayFrom) = (query.hourFrom.unixSeconds, query.dayFrom.unixSeconds)
        // NULL compares to nothing: an absent address or payee is never seen.
        let row = try await rows(
            """
            SELECT
                (SELECT last_at FROM risk_user_seen WHERE user_id = \(user) AND kind = 'any_address' AND value = '') AS any_address,
                (SELECT last_at FROM risk_user_seen WHERE user_id = \(user) AND kind = 'address' AND value = \(query.clientAddress)) AS address,
                (SELECT last_at FROM risk_user_seen WHERE user_id = \(user) AND kind = 'payee' AND value = \(query.payeeKey)) AS payee,
                (SELECT amount_minor FROM risk_user_maxima WHERE user_id = \(user) AND authorised_at > \(since)
                    ORDER BY authorised_at LIMIT 1) AS largest,
                (SELECT user_count_through FROM risk_payments WHERE user_id = \(user) AND authorised_at IS NOT NULL
                    ORDER BY authorised_at DESC LIMIT 1) AS count,
                (SELECT user_count_through FROM risk_payments WHERE user_id = \(user) AND authorised_at <= \(hourFrom)
                    ORDER BY authorised_at DESC LIMIT 1) AS count_through,
                (SELECT user_sum_through FROM risk_payments WHERE user_id = \(user) AND authorised_at IS NOT NULL
                    ORDER BY authorised_at DESC LIMIT 1) AS sum,
                (SELECT user_sum_through FROM risk_payments WHERE user_id = \(user) AND authorised_at <= \(dayFrom)
                    ORDER BY authorised_at DESC LIMIT 1) AS sum_through
            """
        ).first
        guard let row else { return RiskHistoryTotals() }
        let columns = Columns(row)
        return RiskHistoryTotals(
            lastAddressAt: try columns.optionalDate("any_address"), addressSeenAt: try columns.optionalDate("address"),
            payeeSeenAt: try columns.optionalDate("payee"), largestAmountMinor: try columns.value("largest", as: Int64?.self),
            count: try columns.value("count", as: Int64?.self) ?? 0,
            countThroughHourFrom: try columns.value("count_through", as: Int64?.self) ?? 0,
            sumMinor: try columns.value("sum", as: Int64?.self) ?? 0,
            sumThroughDayFrom: try columns.value("sum_through", as: Int64?.self) ?? 0)
    }

    /// The fraud-rate volume of each type in `[from, to)`: the running total before `to` less
    /// the one before `from`, two index seeks per type, in one statement.
    func riskPaymentVolumeFromTotals(from: Date, to: Date) async throws -> [PaymentType: Int64] {
        guard from < to else { return [:] }
        let types = PaymentType.allCases.map(\.rawValue)
        let rows = try await rows(
            """
            SELECT t.type AS payment_type,
                COALESCE((SELECT volume_through FROM risk_payments WHERE payment_type = t.type AND authorised_at < \(to.unixSeconds)
                    ORDER BY authorised_at DESC LIMIT 1), 0)
                - COALESCE((SELECT volume_through FROM risk_payments WHERE payment_type = t.type AND authorised_at < \(from.unixSeconds)
                    ORDER BY authorised_at DESC LIMIT 1), 0) AS total
            FROM unnest(\(types)::TEXT[]) AS t (type)
            """)
        return try Self.volumes(rows)
    }

    /// Records a fraud report and adds it to its day's total and to the running totals of that
    /// day and every later day with fraud, in one transaction under `riskAggregateLock` (a new
    /// day's running total starts from the day before it, so the updates go one at a time).
    func insertFraudReport(_ report: FraudReportRecord) async throws {
        let (type, day, amount) = (report.type.rawValue, RiskDay.number(containing: report.occurredAt.unixSeconds), report.amountMinor)
        try await transaction { [self] connection in
            _ = try await connection.rows(
                """
                INSERT INTO fraud_reports (id, transaction_digest, amount_minor, payment_type, occurred_at, reported_at)
                VALUES (
                    \(report.id), \(report.transactionDigest), \(amount), \(type),
                    \(report.occurredAt.unixSeconds), \(report.reportedAt.unixSeconds)
                )
                """, logger: logger)
            try await connection.lockSchema(PostgresMigrations.riskAggregateLock, logger: logger)
            _ = try await connection.rows(
                """
                INSERT INTO fraud_days (payment_type, day, amount_minor, amount_through)
                VALUES (\(type), \(day), \(amount), \(amount) + COALESCE((
                    SELECT d.amount_through FROM fraud_days d WHERE d.payment_type = \(type) AND d.day < \(day)
                    ORDER BY d.day DESC LIMIT 1), 0))
                ON CONFLICT (payment_type, day) DO UPDATE SET
                    amount_minor = fraud_days.amount_minor + excluded.amount_minor,
                    amount_through = fraud_days.amount_through + excluded.amount_minor
                """, logger: logger)
            _ = try await connection.rows(
                "UPDATE fraud_days SET amount_through = amount_through + \(amount) WHERE payment_type = \(type) AND day > \(day)",
                logger: logger)
        }
    }

    /// Fraud of each type that occurred in `[from, to)`: whole days from the running totals
    /// (through the last day less through the day before the first, two index seeks), the parts
    /// of a day at the edges from that day's reports (``RiskDay/span(from:to:)``); one statement.
    func fraudVolumeFromDays(from: Date, to: Date) async throws -> [PaymentType: Int64] {
        let span = RiskDay.span(from: from.unixSeconds, to: to.unixSeconds)
        let edges = span.edges + Array(repeating: (lower: 0, upper: 0), count: 2 - span.edges.count)
        // No whole day: both seeks stop before the same day and cancel out.
        let (first, end) = span.days.isEmpty ? (Int64(0), Int64(0)) : (span.days.lowerBound, span.days.upperBound)
        let types = PaymentType.allCases.map(\.rawValue)
        let rows = try await rows(
            """
            SELECT payment_type, SUM(total)::BIGINT AS total FROM (
                SELECT t.type AS payment_type,
                    COALESCE((SELECT amount_through FROM fraud_days WHERE payment_type = t.type AND day < \(end)
                        ORDER BY day DESC LIMIT 1), 0)
                    - COALESCE((SELECT amount_through FROM fraud_days WHERE payment_type = t.type AND day < \(first)
                        ORDER BY day DESC LIMIT 1), 0) AS total
                FROM unnest(\(types)::TEXT[]) AS t (type)
                UNION ALL
                SELECT payment_type, amount_minor FROM fraud_reports
                WHERE (occurred_at >= \(edges[0].lower) AND occurred_at < \(edges[0].upper))
                    OR (occurred_at >= \(edges[1].lower) AND occurred_at < \(edges[1].upper))
            ) AS parts
            GROUP BY payment_type
            """)
        return try Self.volumes(rows)
    }

    /// Volumes read as (`payment_type`, `total`) rows; a zero total is no volume.
    private static func volumes(_ rows: [PostgresRow]) throws -> [PaymentType: Int64] {
        PaymentType.volumes(try rows.map { row in
            let columns = Columns(row)
            return (try columns.string("payment_type"), try columns.integer("total"))
        }).filter { $0.value != 0 }
    }
}
