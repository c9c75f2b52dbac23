import Foundation
import GRDB
import GRDBSQLite
import SCACore
import SCAStorage
@testable import SCAStorageSQLite
import Testing

/// What the store does for one payment's risk decision (TRA on) does not grow with history:
/// counted in the steps SQLite's virtual machine runs, which grow with every row a statement
/// reads, not in time. One connection (an in-memory store) runs every statement, so every
/// statement is counted.
@Suite("Risk store work per payment")
struct RiskStoreWorkTests {
    @Test("a payment's risk reads and write run as many SQLite steps after 2,000 earlier payments of its user as after 100")
    func paymentWorkDoesNotGrowWithHistory() async throws {
        // Against a few payments rather than none: a seek that finds a row runs a few steps
        // more than one that finds nothing, once, whatever the history.
        let few = try await stepsOfOnePayment(afterEarlierPayments: 100)
        let many = try await stepsOfOnePayment(afterEarlierPayments: 2_000)
        #expect(many <= few + few / 50, "\(few) steps after 100 payments, \(many) after 2,000")
        // And the first payment costs about as much: the aggregates are there from the start.
        let none = try await stepsOfOnePayment(afterEarlierPayments: 0)
        #expect(many <= none + none / 2, "\(none) steps after no payments, \(many) after 2,000")
        print("risk store work per payment: \(none) SQLite steps after 0 earlier payments, \(few) after 100, \(many) after 2,000")
    }

    /// The steps of one payment's store calls with TRA on, as its opening makes them
    /// (`RiskService.decide`'s reads, then the challenge's write with the payment it decided),
    /// after `count` payments of its user over the last 80 days, each beside two of other
    /// users, with a fraud report every hundred payments.
    private func stepsOfOnePayment(afterEarlierPayments count: Int) async throws -> Int64 {
        let store = try SQLiteStore.inMemory()
        let t0 = StoreConformance.t0
        let now = t0 + 86_400 * 80
        for index in 0..<count {
            let at = t0 + Double(index) * (86_400 * 80 / Double(count))
            for user in ["u1", "u\(2 + index % 5)", "u\(7 + index % 3)"] {
                try await store.recordRiskPayment(payment("\(user)-\(index)", user: user, at: at, payee: "payee-\(index % 40)"))
            }
            if index % (count / 20) == count / 40 {
                try await store.addFraudReport(
                    FraudReportRecord(
                        id: "fr\(index)", transactionDigest: nil, amountMinor: 500, type: .creditTransfer, occurredAt: at,
                        reportedAt: at + 3_600))
            }
        }
        try await store.writer.writeWithoutTransaction { db in _ = Self.steps(db) }

        _ = try await store.riskState(key: "user:u1", as: RiskState.self)
        _ = try await store.riskHistory(
            RiskHistoryQuery(
                userID: "u1", since: now - 90 * 86_400, hourSince: now - 3_600, daySince: now - 86_400, clientAddress: "192.0.2.1",
                payeeKey: "payee-3"))
        _ = try await store.riskPaymentVolume(from: now - 90 * 86_400, to: now + 1)
        _ = try await store.fraudVolume(from: now - 90 * 86_400, to: now + 1)
        let paying = payment("this", user: "u1", at: now, payee: "payee-3")
        let challenge = ChallengeRecord(
            id: "this", userID: "u1", operation: .payment, verdict: .immediate, requiredCategories: 0, methods: [],
            nonce: "nonce", createdAt: now, expiresAt: now + 300)
        _ = try await store.insertChallenge(
            challenge, auditing: [],
            admitting: RiskAdmission(
                payment: paying, stateChange: RiskStateChange(key: "user:u1", readText: nil, newText: try RiskStateCodec.encode(RiskState()))),
            opening: nil)
        return try await store.writer.writeWithoutTransaction { db in Self.steps(db) }
    }

    private func payment(_ id: String, user: String, at: Date, payee: String) -> RiskPaymentRecord {
        RiskPaymentRecord(
            challengeID: id, userID: user, createdAt: at, authorisedAt: at, amountMinor: 2_500, amount: "25.00", currency: "EUR",
            type: .creditTransfer, payeeKey: payee, transactionDigest: "txn-\(id)", clientAddress: "192.0.2.1", exemption: .tra)
    }

    /// The steps every prepared statement of the connection ran since the last call, and
    /// their counters set back to zero.
    private static func steps(_ db: Database) -> Int64 {
        var total: Int64 = 0
        var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
        while let current = statement {
            total += Int64(sqlite3_stmt_status(current, SQLITE_STMTSTATUS_VM_STEP, 1))
            statement = sqlite3_next_stmt(db.sqliteConnection, current)
        }
        return total
    }
}
