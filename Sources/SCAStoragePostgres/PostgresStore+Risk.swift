import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// The risk engine's records (v3-risk), with the running aggregates a payment reads instead of
// its history (v4-risk-aggregates, PostgresStore+RiskAggregates.swift). A state is read with
// its row locked and written back in one transaction, so parallel decisions for one user, from
// any instance, are made one after the other. A missing row is created and the row locked in one
// statement (racing creations agree on one row); what to change is the caller's pure transition.
extension PostgresStore {
    package func updateRiskState<State: RiskStateValue, Outcome: Sendable>(
        key: String, as type: State.Type, _ transition: @escaping @Sendable (inout State) -> Outcome
    ) async throws -> Outcome {
        try await transaction { [self] connection in try await updateRiskState(key: key, as: State.self, transition, connection) }
    }

    package func authoriseRiskPayment<State: RiskStateValue>(
        challengeID: String, at: Date, updating key: String, as type: State.Type,
        _ transition: @escaping @Sendable (inout State, RiskPaymentRecord?) -> Void
    ) async throws -> RiskPaymentRecord? {
        try await transaction { [self] connection in
            let payment = try await connection.rows(Self.authoriseRiskPaymentQuery(challengeID: challengeID, at: at), logger: logger)
                .first.map(RiskPaymentRecord.init(row:))
            try await updateRiskState(key: key, as: State.self, { transition(&$0, payment) }, connection)
            if let payment { try await addToRiskAggregates(payment, connection) }
            return payment
        }
    }

    /// ``updateRiskState(key:as:_:)`` inside a caller's transaction: the row is made if missing
    /// and locked until that transaction ends, in one statement.
    @discardableResult
    func updateRiskState<State: RiskStateValue, Outcome>(
        key: String, as type: State.Type, _ transition: (inout State) -> Outcome, _ connection: PostgresConnection
    ) async throws -> Outcome {
        let fresh = try RiskStateCodec.encode(State())
        // Made if missing and locked in one statement: a conflict's update (of nothing that
        // changes) takes the row's lock and returns the row as stored.
        guard let row = try await connection.rows(
            """
            INSERT INTO risk_states (key, state_json) VALUES (\(key), \(fresh))
            ON CONFLICT (key) DO UPDATE SET state_json = risk_states.state_json RETURNING state_json
            """, logger: logger
        ).first else { throw StoreError.notFound }
        let text: String = try Columns(row).value("state_json")
        var state = try RiskStateCodec.decode(text, as: State.self)
        let before = state
        let outcome = transition(&state)
        if state != before {
            let encoded = try RiskStateCodec.encode(state)
            _ = try await connection.rows(
                "UPDATE risk_states SET state_json = \(encoded) WHERE key = \(key)", logger: logger)
        }
        return outcome
    }

    package func riskStateText(key: String) async throws -> String? {
        try await rows("SELECT state_json FROM risk_states WHERE key = \(key)").first.map { try Columns($0).value("state_json") }
    }

    /// A payment's state change inside the transaction that opens its challenge
    /// (``insertChallenge(_:auditing:admitting:opening:)``), in one statement: written only while the
    /// state is still the text the decision read. A parallel writer's row lock makes this wait
    /// for its commit and compare with what it committed.
    func changeRiskState(_ change: RiskStateChange, _ connection: PostgresConnection) async throws {
        let query: PostgresQuery =
            if let read = change.readText {
                "UPDATE risk_states SET state_json = \(change.newText) WHERE key = \(change.key) AND state_json = \(read) RETURNING key"
            } else {
                "INSERT INTO risk_states (key, state_json) VALUES (\(change.key), \(change.newText)) ON CONFLICT (key) DO NOTHING RETURNING key"
            }
        guard try await connection.rows(query, logger: logger).count == 1 else { throw StoreError.conflict("riskState") }
    }

    /// The payment and, once authorised, its share of the running aggregates, inside a caller's transaction.
    func insertRiskPayment(_ payment: RiskPaymentRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(Self.insertRiskPaymentQuery(payment), logger: logger)
        try await addToRiskAggregates(payment, connection)
    }

    package func recordRiskPayment(_ payment: RiskPaymentRecord) async throws {
        do {
            guard payment.authorisedAt != nil else {
                _ = try await rows(Self.insertRiskPaymentQuery(payment))
                return
            }
            try await transaction { [self] connection in try await insertRiskPayment(payment, connection) }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("challengeID")
        }
    }

    package func authoriseRiskPayment(challengeID: String, at: Date) async throws -> RiskPaymentRecord? {
        try await transaction { [self] connection in
            let payment = try await connection.rows(Self.authoriseRiskPaymentQuery(challengeID: challengeID, at: at), logger: logger)
                .first.map(RiskPaymentRecord.init(row:))
            if let payment { try await addToRiskAggregates(payment, connection) }
            return payment
        }
    }

    private static func insertRiskPaymentQuery(_ payment: RiskPaymentRecord) -> PostgresQuery {
        var query = PostgresQuery(unsafeSQL: "")
        appendRiskPaymentInsert(payment, to: &query)
        return query
    }

    /// The payment's insert at the end of `query`, its one bind after `query`'s: a statement
    /// of its own, or a `WITH` part of the statement that inserts its challenge. The row goes
    /// as one JSON object, so it joins whatever binds the statement has already.
    static func appendRiskPaymentInsert(_ payment: RiskPaymentRecord, to query: inout PostgresQuery) {
        var row = JSONObjectText()
        row.add("challenge_id", payment.challengeID)
        row.add("user_id", payment.userID)
        row.add("created_at", payment.createdAt.unixSeconds)
        row.add("authorised_at", payment.authorisedAt?.unixSeconds)
        row.add("amount_minor", payment.amountMinor)
        row.add("amount", payment.amount)
        row.add("currency", payment.currency)
        row.add("payment_type", payment.type.rawValue)
        row.add("payee_key", payment.payeeKey)
        row.add("iban", payment.iban)
        row.add("transaction_digest", payment.transactionDigest)
        row.add("client_address", payment.clientAddress)
        row.add("device_id", payment.deviceID)
        row.add("exemption", payment.exemption?.rawValue)
        row.add("recurring", payment.recurring)
        query.binds.append(row.text)
        let columns = """
            challenge_id, user_id, created_at, authorised_at, amount_minor, amount, currency, payment_type, payee_key,
            iban, transaction_digest, client_address, device_id, exemption, recurring
            """
        query.sql += """
            INSERT INTO risk_payments (\(columns))
            SELECT \(columns) FROM jsonb_populate_record(NULL::risk_payments, $\(query.binds.count)::JSONB)
            """
    }

    private static func authoriseRiskPaymentQuery(challengeID: String, at: Date) -> PostgresQuery {
        """
        UPDATE risk_payments SET authorised_at = \(at.unixSeconds)
        WHERE challenge_id = \(challengeID) AND authorised_at IS NULL
        RETURNING *
        """
    }

    package func riskPayments(userID: String, since: Date) async throws -> [RiskPaymentRecord] {
        try await rows(
            """
            SELECT * FROM risk_payments WHERE user_id = \(userID) AND authorised_at >= \(since.unixSeconds)
            ORDER BY authorised_at DESC, challenge_id
            """
        ).map(RiskPaymentRecord.init(row:))
    }

    package func riskHistory(_ query: RiskHistoryQuery) async throws -> RiskHistory {
        try await riskHistoryTotals(query).history(for: query)
    }

    package func riskPayment(transactionDigest: String) async throws -> RiskPaymentRecord? {
        try await rows(
            """
            SELECT * FROM risk_payments WHERE transaction_digest = \(transactionDigest) AND authorised_at IS NOT NULL
            ORDER BY authorised_at DESC LIMIT 1
            """
        ).first.map(RiskPaymentRecord.init(row:))
    }

    /// A range of `risk_payments_exempted` (v11-console-reports), which holds exempted
    /// payments alone, by time.
    package func exemptionsGranted(from: Date, to: Date) async throws -> [ExemptionTally] {
        try await rows(
            """
            SELECT floor(authorised_at / 86400)::BIGINT AS day, exemption, COUNT(*)::BIGINT AS granted
            FROM risk_payments WHERE exemption IS NOT NULL AND authorised_at >= \(from.unixSeconds) AND authorised_at < \(to.unixSeconds)
            GROUP BY day, exemption ORDER BY day, exemption
            """
        ).compactMap { row in
            let columns = Columns(row)
            // An exemption this version does not know (written by a newer one) is left out.
            guard let exemption = Exemption(rawValue: try columns.string("exemption")) else { return nil }
            return ExemptionTally(day: try columns.integer("day"), exemption: exemption, count: Int(try columns.integer("granted")))
        }
    }

    package func riskPaymentVolume(from: Date, to: Date) async throws -> [PaymentType: Int64] {
        try await riskPaymentVolumeFromTotals(from: from, to: to)
    }

    package func addFraudReport(_ report: FraudReportRecord) async throws {
        do {
            try await insertFraudReport(report)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("transactionDigest")
        }
    }

    package func fraudVolume(from: Date, to: Date) async throws -> [PaymentType: Int64] {
        try await fraudVolumeFromDays(from: from, to: to)
    }
}
