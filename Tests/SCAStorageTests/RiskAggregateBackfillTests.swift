import Foundation
import GRDB
import SCACore
import SCAStorage
@testable import SCAStorageSQLite
import SCAStoragePostgres
import Testing

/// An installation upgraded to the running aggregates (v4-risk-aggregates) reads the same
/// figures as before: the step fills them from the payments and fraud reports already there,
/// and the payments after the upgrade add to what it filled.
enum RiskAggregateBackfillCheck {
    static let t0 = StoreConformance.t0
    static let lastStepBefore = "v4-delegated-tokens"

    /// Rows as an older server wrote them: four users over 120 days, both types, every
    /// exemption, payments never authorised, several at one instant; fraud reports at midnight,
    /// just before it, and on payments.
    static func olderRows() -> RiskAggregateScan {
        var numbers = SeededNumbers(seed: 4_242)
        var payments: [RiskPaymentRecord] = []
        let exemptions: [Exemption?] = [nil, nil, .tra, .lowValue, .recurring]
        for index in 0..<150 {
            let at = index % 9 == 4 ? payments[index - 1].createdAt : t0 + Double(index) * 69_000 + Double(numbers.next(below: 3)) * 0.5
            let minor = Int64([250, 900, 900, 4_000, 120][numbers.next(below: 5)])
            payments.append(
                RiskPaymentRecord(
                    challengeID: "old\(index)", userID: "u\(numbers.next(below: 4))", createdAt: at,
                    authorisedAt: numbers.next(below: 8) == 0 ? nil : at, amountMinor: minor, amount: EURAmount.text(minor),
                    currency: "EUR", type: numbers.next(below: 3) == 0 ? .card : .creditTransfer, payeeKey: "payee-\(numbers.next(below: 4))",
                    iban: nil, transactionDigest: "txn-old\(index)",
                    clientAddress: [nil, "192.0.2.1", "192.0.2.2"][numbers.next(below: 3)], deviceID: nil,
                    exemption: exemptions[numbers.next(below: exemptions.count)], recurring: false))
        }
        let midnight = (t0.timeIntervalSince1970 / 86_400).rounded(.up) * 86_400 + 86_400 * 10
        let occurrences = [midnight, midnight.nextDown, midnight + 43_200] + payments.compactMap(\.authorisedAt).map(\.timeIntervalSince1970)
            .enumerated().filter { $0.offset % 13 == 0 }.map(\.element)
        let reports = occurrences.enumerated().map { index, occurred in
            FraudReportRecord(
                id: "fr-old\(index)", transactionDigest: nil, amountMinor: Int64(40 + index * 9),
                type: index.isMultiple(of: 3) ? .card : .creditTransfer, occurredAt: Date(timeIntervalSince1970: occurred),
                reportedAt: t0 + 86_400 * 130)
        }
        return RiskAggregateScan(payments: payments, reports: reports)
    }

    static let instants = [t0 + 86_400 * 60, t0 + 86_400 * 100, t0 + 69_000 * 150, t0 + 86_400 * 200]

    /// The figures after the upgrade equal the scan; then a payment authorised later than all
    /// (and one earlier than the last), and a fraud report on an old payment, keep them equal.
    static func check(_ store: any SCAStore, rows: RiskAggregateScan) async throws {
        var scan = rows
        try await scan.expectStoreAgrees(store, at: instants)
        let late = RiskPaymentRecord(
            challengeID: "new1", userID: "u1", createdAt: t0 + 69_000 * 151, authorisedAt: t0 + 69_000 * 151, amountMinor: 700,
            amount: "7.00", currency: "EUR", type: .creditTransfer, payeeKey: "payee-1", transactionDigest: "txn-new1",
            clientAddress: "192.0.2.9")
        var early = late
        (early.challengeID, early.transactionDigest, early.userID) = ("new2", "txn-new2", "u2")
        (early.createdAt, early.authorisedAt, early.amountMinor) = (t0 + 69_000 * 120.5, t0 + 69_000 * 120.5, 5_000)
        for payment in [late, early] { try await store.recordRiskPayment(payment) }
        let report = FraudReportRecord(
            id: "fr-new", transactionDigest: "txn-old7", amountMinor: 333, type: .creditTransfer,
            occurredAt: t0 + 69_000 * 7, reportedAt: t0 + 69_000 * 152)
        try await store.addFraudReport(report)
        scan.payments += [late, early]
        scan.reports.append(report)
        try await scan.expectStoreAgrees(store, at: instants)
    }
}

@Suite("Risk aggregates filled on upgrade: SQLite")
struct SQLiteRiskAggregateBackfillTests {
    @Test("a file written before v4-risk-aggregates reads the same figures once upgraded")
    func upgradedFileReadsTheSameFigures() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sca.sqlite").path
            let rows = RiskAggregateBackfillCheck.olderRows()
            do {
                let older = try DatabaseQueue(path: path)
                try SQLiteMigrations.migrator.migrate(older, upTo: RiskAggregateBackfillCheck.lastStepBefore)
                try await older.write { db in
                    for payment in rows.payments {
                        try db.execute(
                            sql: """
                                INSERT INTO risk_payments (
                                    challenge_id, user_id, created_at, authorised_at, amount_minor, amount, currency,
                                    payment_type, payee_key, iban, transaction_digest, client_address, device_id, exemption, recurring
                                ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                                """,
                            arguments: [
                                payment.challengeID, payment.userID, payment.createdAt.timeIntervalSince1970,
                                payment.authorisedAt?.timeIntervalSince1970, payment.amountMinor, payment.amount, payment.currency,
                                payment.type.rawValue, payment.payeeKey, payment.iban, payment.transactionDigest,
                                payment.clientAddress, payment.deviceID, payment.exemption?.rawValue, payment.recurring,
                            ])
                    }
                    for report in rows.reports {
                        try db.execute(
                            sql: """
                                INSERT INTO fraud_reports (id, transaction_digest, amount_minor, payment_type, occurred_at, reported_at)
                                VALUES (?, ?, ?, ?, ?, ?)
                                """,
                            arguments: [
                                report.id, report.transactionDigest, report.amountMinor, report.type.rawValue,
                                report.occurredAt.timeIntervalSince1970, report.reportedAt.timeIntervalSince1970,
                            ])
                    }
                }
                try older.close()
            }
            try await RiskAggregateBackfillCheck.check(try SQLiteStore(path: path), rows: rows)
        }
    }
}

@Suite(
    "Risk aggregates filled on upgrade: PostgreSQL", .serialized,
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct PostgresRiskAggregateBackfillTests {
    @Test("a schema written before v4-risk-aggregates reads the same figures once upgraded")
    func upgradedSchemaReadsTheSameFigures() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            let rows = RiskAggregateBackfillCheck.olderRows()
            try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger).withRunning { _ in }
            // Back to the schema before the step, as an older server left it.
            for statement in [
                "ALTER TABLE risk_payments DROP COLUMN user_count_through, DROP COLUMN user_sum_through, DROP COLUMN volume_through",
                "DROP INDEX risk_payments_type_authorised",
                "DROP TABLE risk_user_seen, risk_user_maxima, fraud_days",
                "DELETE FROM schema_migrations WHERE id = 'v4-risk-aggregates'",
            ] {
                try await PostgresTestDatabase.execute(statement, url: url)
            }
            func text(_ value: String?) -> String { value.map { "'\($0)'" } ?? "NULL" }
            func number(_ value: Date?) -> String { value.map { "\($0.timeIntervalSince1970)" } ?? "NULL" }
            // The values are this test's constants, with no quote in them.
            let values = rows.payments.map { p in
                """
                (\(text(p.challengeID)), \(text(p.userID)), \(number(p.createdAt)), \(number(p.authorisedAt)), \(p.amountMinor),
                 \(text(p.amount)), \(text(p.currency)), \(text(p.type.rawValue)), \(text(p.payeeKey)), \(text(p.iban)),
                 \(text(p.transactionDigest)), \(text(p.clientAddress)), \(text(p.deviceID)), \(text(p.exemption?.rawValue)), \(p.recurring))
                """
            }
            try await PostgresTestDatabase.execute(
                """
                INSERT INTO risk_payments (
                    challenge_id, user_id, created_at, authorised_at, amount_minor, amount, currency,
                    payment_type, payee_key, iban, transaction_digest, client_address, device_id, exemption, recurring
                ) VALUES \(values.joined(separator: ",\n"))
                """, url: url)
            let reports = rows.reports.map { r in
                """
                (\(text(r.id)), \(text(r.transactionDigest)), \(r.amountMinor), \(text(r.type.rawValue)),
                 \(number(r.occurredAt)), \(number(r.reportedAt)))
                """
            }
            try await PostgresTestDatabase.execute(
                """
                INSERT INTO fraud_reports (id, transaction_digest, amount_minor, payment_type, occurred_at, reported_at)
                VALUES \(reports.joined(separator: ",\n"))
                """, url: url)
            try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger).withRunning { store in
                try await RiskAggregateBackfillCheck.check(store, rows: rows)
            }
        }
    }
}
