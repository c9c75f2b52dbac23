import Foundation
import GRDB
import SCACore
import SCAStorage

// The risk engine's records (v3-risk), with the running aggregates a payment reads instead of
// its history (v4-risk-aggregates, SQLiteStore+RiskAggregates.swift). A state is read and
// written back inside one write transaction, so parallel decisions for one user are made one
// after the other; what to change is the caller's pure transition.
extension SQLiteStore {
    package func updateRiskState<State: RiskStateValue, Outcome: Sendable>(
        key: String, as type: State.Type, _ transition: @escaping @Sendable (inout State) -> Outcome
    ) async throws -> Outcome {
        try await write { db in try Self.updateRiskState(key: key, as: State.self, transition, db) }
    }

    package func authoriseRiskPayment<State: RiskStateValue>(
        challengeID: String, at: Date, updating key: String, as type: State.Type,
        _ transition: @escaping @Sendable (inout State, RiskPaymentRecord?) -> Void
    ) async throws -> RiskPaymentRecord? {
        try await write { db in
            let payment = try Self.authoriseRiskPayment(challengeID: challengeID, at: at, db)
            try Self.updateRiskState(key: key, as: State.self, { transition(&$0, payment) }, db)
            return payment
        }
    }

    /// ``updateRiskState(key:as:_:)`` inside a caller's write transaction.
    @discardableResult
    static func updateRiskState<State: RiskStateValue, Outcome>(
        key: String, as type: State.Type, _ transition: (inout State) -> Outcome, _ db: Database
    ) throws -> Outcome {
        let text = try storedRiskState(key: key, db)
        var state = try RiskStateCodec.decode(text, as: State.self)
        let before = state
        let outcome = transition(&state)
        if state != before || text == nil {
            try writeRiskState(key: key, text: try RiskStateCodec.encode(state), db)
        }
        return outcome
    }

    private static func writeRiskState(key: String, text: String, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO risk_states (key, state_json) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET state_json = excluded.state_json
                """
        ).execute(arguments: [key, text])
    }

    /// The stored text of the state under `key`, nil when none was written.
    private static func storedRiskState(key: String, _ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT state_json FROM risk_states WHERE key = ?"), arguments: [key])
    }

    package func riskStateText(key: String) async throws -> String? {
        try await read { db in try Self.storedRiskState(key: key, db) }
    }

    /// A payment's decision inside the write that opens its challenge
    /// (``insertChallenge(_:auditing:admitting:opening:)``): its state change while the state is still
    /// what the decision read, then its payment.
    static func admit(_ admission: RiskAdmission, _ db: Database) throws {
        if let change = admission.stateChange {
            guard try storedRiskState(key: change.key, db) == change.readText else { throw StoreError.conflict("riskState") }
            try writeRiskState(key: change.key, text: change.newText, db)
        }
        try insertRiskPayment(admission.payment, db)
    }

    /// A challenge's completion with SCA inside the proof's write transaction
    /// (``commitProof(_:)``): its payment authorised, then the state that records it.
    static func record(_ completion: RiskCompletion, _ db: Database) throws {
        let payment: RiskPaymentRecord? =
            if case .paymentAuthorised(let challengeID, _, let at) = completion {
                try authoriseRiskPayment(challengeID: challengeID, at: at, db)
            } else {
                nil
            }
        try updateRiskState(key: completion.stateKey, as: RiskState.self, { completion.apply(to: &$0, payment: payment) }, db)
    }

    package func recordRiskPayment(_ payment: RiskPaymentRecord) async throws {
        try await write { db in try Self.insertRiskPayment(payment, db) }
    }

    package func authoriseRiskPayment(challengeID: String, at: Date) async throws -> RiskPaymentRecord? {
        try await write { db in try Self.authoriseRiskPayment(challengeID: challengeID, at: at, db) }
    }

    /// ``recordRiskPayment(_:)`` inside a caller's write transaction.
    private static func insertRiskPayment(_ payment: RiskPaymentRecord, _ db: Database) throws {
        do {
            try db.cachedStatement(
                sql: """
                    INSERT INTO risk_payments (
                        challenge_id, user_id, created_at, authorised_at, amount_minor, amount, currency,
                        payment_type, payee_key, iban, transaction_digest, client_address, device_id, exemption,
                        recurring
                    ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(
                arguments: [
                    payment.challengeID, payment.userID, payment.createdAt.unixSeconds, payment.authorisedAt?.unixSeconds,
                    payment.amountMinor, payment.amount, payment.currency, payment.type.rawValue, payment.payeeKey,
                    payment.iban, payment.transactionDigest, payment.clientAddress, payment.deviceID,
                    payment.exemption?.rawValue, payment.recurring,
                ])
        } catch let error as DatabaseError where error.isUniquenessViolation {
            throw StoreError.conflict("challengeID")
        }
        try addToRiskAggregates(payment, db)
    }

    /// ``authoriseRiskPayment(challengeID:at:)`` inside a caller's write transaction.
    private static func authoriseRiskPayment(challengeID: String, at: Date, _ db: Database) throws -> RiskPaymentRecord? {
        try db.cachedStatement(
            sql: "UPDATE risk_payments SET authorised_at = ? WHERE challenge_id = ? AND authorised_at IS NULL").execute(
            arguments: [at.unixSeconds, challengeID])
        guard db.changesCount == 1,
            let payment = try db.cachedStatement(sql: "SELECT * FROM risk_payments WHERE challenge_id = ?")
                .fetchOne(RiskPaymentRecord.self, arguments: [challengeID])
        else { return nil }
        try addToRiskAggregates(payment, db)
        return payment
    }

    package func riskPayments(userID: String, since: Date) async throws -> [RiskPaymentRecord] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM risk_payments WHERE user_id = ? AND authorised_at >= ?
                ORDER BY authorised_at DESC, challenge_id
                """
            ).fetchAll(RiskPaymentRecord.self, arguments: [userID, since.unixSeconds])
        }
    }

    package func riskHistory(_ query: RiskHistoryQuery) async throws -> RiskHistory {
        try await read { db in try Self.riskHistoryTotals(query, db).history(for: query) }
    }

    package func riskPayment(transactionDigest: String) async throws -> RiskPaymentRecord? {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM risk_payments WHERE transaction_digest = ? AND authorised_at IS NOT NULL
                ORDER BY authorised_at DESC LIMIT 1
                """
            ).fetchOne(RiskPaymentRecord.self, arguments: [transactionDigest])
        }
    }

    package func riskPaymentVolume(from: Date, to: Date) async throws -> [PaymentType: Int64] {
        try await read { db in try Self.riskPaymentVolume(from: from, to: to, db) }
    }

    /// A range of `risk_payments_exempted` (v11-console-reports), which holds exempted
    /// payments alone, by time.
    package func exemptionsGranted(from: Date, to: Date) async throws -> [ExemptionTally] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT CAST(authorised_at / 86400 AS INTEGER) AS day, exemption, COUNT(*) AS granted
                FROM risk_payments WHERE exemption IS NOT NULL AND authorised_at >= ? AND authorised_at < ?
                GROUP BY day, exemption ORDER BY day, exemption
                """
            ).fetchAll(arguments: [from.unixSeconds, to.unixSeconds]) { columns -> ExemptionTally? in
                // An exemption this version does not know (written by a newer one) is left out.
                guard let exemption = Exemption(rawValue: try columns.string("exemption")) else { return nil }
                return ExemptionTally(day: try columns.integer("day"), exemption: exemption, count: Int(try columns.integer("granted")))
            }.compactMap { $0 }
        }
    }

    package func addFraudReport(_ report: FraudReportRecord) async throws {
        try await write { db in
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO fraud_reports (id, transaction_digest, amount_minor, payment_type, occurred_at, reported_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [
                        report.id, report.transactionDigest, report.amountMinor, report.type.rawValue,
                        report.occurredAt.unixSeconds, report.reportedAt.unixSeconds,
                    ])
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("transactionDigest")
            }
            try Self.addToFraudDays(report, db)
        }
    }

    package func fraudVolume(from: Date, to: Date) async throws -> [PaymentType: Int64] {
        try await read { db in try Self.fraudVolume(from: from, to: to, db) }
    }
}
