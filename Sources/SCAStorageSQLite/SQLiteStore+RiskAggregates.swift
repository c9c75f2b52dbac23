import Foundation
import GRDB
import SCACore
import SCAStorage

// The running aggregates of the risk engine (v4-risk-aggregates), moved in the write that
// authorises a payment or records a fraud report, so that what a payment reads stays a few
// rows however many payments came before. SQLite has one writer, so each update sees the one
// before it; the store's PostgreSQL twin takes a lock for the same reason.
extension SQLiteStore {
    /// Adds the authorised `payment` to the running aggregates, inside the write that authorised it.
    static func addToRiskAggregates(_ payment: RiskPaymentRecord, _ db: Database) throws {
        guard let authorisedAt = payment.authorisedAt?.unixSeconds else { return }
        let (id, user, type) = (payment.challengeID, payment.userID, payment.type.rawValue)
        let (amount, volume) = (payment.amountMinor, payment.fraudRateVolumeMinor)
        // Its running totals: those of the payment just before it (or at the same instant) and
        // its own. Any payment authorised later that is already there (an authorisation that
        // took its time before committing) gets this one added, so the totals stay in time order.
        try db.cachedStatement(
            sql: """
                UPDATE risk_payments SET
                    user_count_through = 1 + COALESCE((
                        SELECT p.user_count_through FROM risk_payments p
                        WHERE p.user_id = ?1 AND p.authorised_at <= ?2 AND p.challenge_id <> ?3
                        ORDER BY p.authorised_at DESC LIMIT 1), 0),
                    user_sum_through = ?4 + COALESCE((
                        SELECT p.user_sum_through FROM risk_payments p
                        WHERE p.user_id = ?1 AND p.authorised_at <= ?2 AND p.challenge_id <> ?3
                        ORDER BY p.authorised_at DESC LIMIT 1), 0),
                    volume_through = ?6 + COALESCE((
                        SELECT p.volume_through FROM risk_payments p
                        WHERE p.payment_type = ?5 AND p.authorised_at <= ?2 AND p.challenge_id <> ?3
                        ORDER BY p.authorised_at DESC LIMIT 1), 0)
                WHERE challenge_id = ?3
                """
        ).execute(arguments: [user, authorisedAt, id, amount, type, volume])
        try db.cachedStatement(
            sql: """
                UPDATE risk_payments SET
                    user_count_through = user_count_through + (user_id = ?1),
                    user_sum_through = user_sum_through + CASE WHEN user_id = ?1 THEN ?4 ELSE 0 END,
                    volume_through = volume_through + CASE WHEN payment_type = ?5 THEN ?6 ELSE 0 END
                WHERE authorised_at >= ?2 AND challenge_id <> ?3 AND (user_id = ?1 OR payment_type = ?5)
                """
        ).execute(arguments: [user, authorisedAt, id, amount, type, volume])
        if let address = payment.clientAddress {
            try db.cachedStatement(
                sql: """
                    INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                    VALUES (?1, 'payee', ?2, ?4), (?1, 'address', ?3, ?4), (?1, 'any_address', '', ?4)
                    ON CONFLICT (user_id, kind, value) DO UPDATE SET last_at = MAX(last_at, excluded.last_at)
                    """
            ).execute(arguments: [user, payment.payeeKey, address, authorisedAt])
        } else {
            try db.cachedStatement(
                sql: """
                    INSERT INTO risk_user_seen (user_id, kind, value, last_at) VALUES (?1, 'payee', ?2, ?3)
                    ON CONFLICT (user_id, kind, value) DO UPDATE SET last_at = MAX(last_at, excluded.last_at)
                    """
            ).execute(arguments: [user, payment.payeeKey, authorisedAt])
        }
        // Unless a payment at the same time or later is at least as large, this one takes the
        // place of those before it that are not larger (a run just before it, since the kept
        // amounts fall as time goes on: the run starts after the smallest one that is larger).
        try db.cachedStatement(
            sql: """
                DELETE FROM risk_user_maxima
                WHERE user_id = ?1 AND authorised_at <= ?2 AND authorised_at > COALESCE((
                        SELECT m.authorised_at FROM risk_user_maxima m WHERE m.user_id = ?1 AND m.amount_minor > ?3
                        ORDER BY m.amount_minor LIMIT 1), -1e308)
                    AND NOT EXISTS (
                        SELECT 1 FROM risk_user_maxima m WHERE m.user_id = ?1 AND m.authorised_at >= ?2 AND m.amount_minor >= ?3)
                """
        ).execute(arguments: [user, authorisedAt, amount])
        try db.cachedStatement(
            sql: """
                INSERT INTO risk_user_maxima (user_id, authorised_at, amount_minor) SELECT ?1, ?2, ?3
                WHERE NOT EXISTS (
                    SELECT 1 FROM risk_user_maxima m WHERE m.user_id = ?1 AND m.authorised_at >= ?2 AND m.amount_minor >= ?3)
                """
        ).execute(arguments: [user, authorisedAt, amount])
    }

    /// The running totals monitoring reads for `query` (``RiskHistoryTotals``).
    static func riskHistoryTotals(_ query: RiskHistoryQuery, _ db: Database) throws -> RiskHistoryTotals {
        // NULL compares to nothing: an absent address or payee is never seen.
        let totals = try db.cachedStatement(
            sql: """
                SELECT
                    (SELECT last_at FROM risk_user_seen WHERE user_id = ?1 AND kind = 'any_address' AND value = '') AS any_address,
                    (SELECT last_at FROM risk_user_seen WHERE user_id = ?1 AND kind = 'address' AND value = ?2) AS address,
                    (SELECT last_at FROM risk_user_seen WHERE user_id = ?1 AND kind = 'payee' AND value = ?3) AS payee,
                    (SELECT amount_minor FROM risk_user_maxima WHERE user_id = ?1 AND authorised_at > ?4
                        ORDER BY authorised_at LIMIT 1) AS largest,
                    (SELECT user_count_through FROM risk_payments WHERE user_id = ?1 AND authorised_at IS NOT NULL
                        ORDER BY authorised_at DESC LIMIT 1) AS count,
                    (SELECT user_count_through FROM risk_payments WHERE user_id = ?1 AND authorised_at <= ?5
                        ORDER BY authorised_at DESC LIMIT 1) AS count_through,
                    (SELECT user_sum_through FROM risk_payments WHERE user_id = ?1 AND authorised_at IS NOT NULL
                        ORDER BY authorised_at DESC LIMIT 1) AS sum,
                    (SELECT user_sum_through FROM risk_payments WHERE user_id = ?1 AND authorised_at <= ?6
                        ORDER BY authorised_at DESC LIMIT 1) AS sum_through
                """
        ).fetchOne(
            arguments: [
                query.userID, query.clientAddress, query.payeeKey, query.since.unixSeconds, query.hourFrom.unixSeconds,
                query.dayFrom.unixSeconds,
            ]
        ) { columns in
            RiskHistoryTotals(
                lastAddressAt: try columns.optionalDate("any_address"), addressSeenAt: try columns.optionalDate("address"),
                payeeSeenAt: try columns.optionalDate("payee"), largestAmountMinor: try columns.value("largest", as: Int64?.self),
                count: try columns.value("count", as: Int64?.self) ?? 0, countThroughHourFrom: try columns.value("count_through", as: Int64?.self) ?? 0,
                sumMinor: try columns.value("sum", as: Int64?.self) ?? 0, sumThroughDayFrom: try columns.value("sum_through", as: Int64?.self) ?? 0)
        }
        return totals ?? RiskHistoryTotals()
    }

    /// The fraud-rate volume of each type in `[from, to)`: the running total before `to` less
    /// the one before `from`, two index seeks per type.
    static func riskPaymentVolume(from: Date, to: Date, _ db: Database) throws -> [PaymentType: Int64] {
        guard from < to else { return [:] }
        var volumes: [PaymentType: Int64] = [:]
        for type in PaymentType.allCases {
            let volume = try db.cachedStatement(
                sql: """
                    SELECT COALESCE((SELECT volume_through FROM risk_payments WHERE payment_type = ?1 AND authorised_at < ?3
                            ORDER BY authorised_at DESC LIMIT 1), 0)
                        - COALESCE((SELECT volume_through FROM risk_payments WHERE payment_type = ?1 AND authorised_at < ?2
                            ORDER BY authorised_at DESC LIMIT 1), 0) AS total
                    """
            ).fetchOne(arguments: [type.rawValue, from.unixSeconds, to.unixSeconds]) { try $0.integer("total") } ?? 0
            if volume != 0 { volumes[type] = volume }
        }
        return volumes
    }

    /// Adds a fraud report to its day's total and to the running totals of that day and every
    /// later day with fraud, inside the write that records it: a report on an old payment moves
    /// the days since, never a payment's reads.
    static func addToFraudDays(_ report: FraudReportRecord, _ db: Database) throws {
        let arguments: StatementArguments = [
            report.type.rawValue, RiskDay.number(containing: report.occurredAt.unixSeconds), report.amountMinor,
        ]
        try db.cachedStatement(
            sql: """
                INSERT INTO fraud_days (payment_type, day, amount_minor, amount_through)
                VALUES (?1, ?2, ?3, ?3 + COALESCE((
                    SELECT d.amount_through FROM fraud_days d WHERE d.payment_type = ?1 AND d.day < ?2
                    ORDER BY d.day DESC LIMIT 1), 0))
                ON CONFLICT (payment_type, day) DO UPDATE SET
                    amount_minor = amount_minor + excluded.amount_minor, amount_through = amount_through + excluded.amount_minor
                """
        ).execute(arguments: arguments)
        try db.cachedStatement(sql: "UPDATE fraud_days SET amount_through = amount_through + ?3 WHERE payment_type = ?1 AND day > ?2")
            .execute(arguments: arguments)
    }

    /// Fraud of each type that occurred in `[from, to)`: whole days from the running totals
    /// (through the last day less through the day before the first, two index seeks), the parts
    /// of a day at the edges from that day's reports (``RiskDay/span(from:to:)``).
    static func fraudVolume(from: Date, to: Date, _ db: Database) throws -> [PaymentType: Int64] {
        let span = RiskDay.span(from: from.unixSeconds, to: to.unixSeconds)
        let edges = span.edges + Array(repeating: (lower: 0, upper: 0), count: 2 - span.edges.count)
        var rows: [(String, Int64)] = []
        if !span.days.isEmpty {
            for type in PaymentType.allCases {
                let total = try db.cachedStatement(
                    sql: """
                        SELECT COALESCE((SELECT amount_through FROM fraud_days WHERE payment_type = ?1 AND day < ?3
                                ORDER BY day DESC LIMIT 1), 0)
                            - COALESCE((SELECT amount_through FROM fraud_days WHERE payment_type = ?1 AND day < ?2
                                ORDER BY day DESC LIMIT 1), 0) AS total
                        """
                ).fetchOne(arguments: [type.rawValue, span.days.lowerBound, span.days.upperBound]) { try $0.integer("total") } ?? 0
                if total != 0 { rows.append((type.rawValue, total)) }
            }
        }
        rows += try db.cachedStatement(
            sql: """
                SELECT payment_type, SUM(amount_minor) AS total FROM fraud_reports
                WHERE (occurred_at >= ? AND occurred_at < ?) OR (occurred_at >= ? AND occurred_at < ?)
                GROUP BY payment_type
                """
        ).fetchAll(arguments: [edges[0].lower, edges[0].upper, edges[1].lower, edges[1].upper]) {
            (try $0.string("payment_type"), try $0.integer("total"))
        }
        return PaymentType.volumes(rows)
    }
}
