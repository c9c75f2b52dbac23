import Foundation
import SCACore
import SCAStorage
import Testing

// A completing proof writes the risk records its completion changes (`ProofCommit.risk`).
extension StoreConformance {
    /// The proof that completes a payment's challenge authorises its payment (once, with its
    /// running aggregates) and resets the counters, a recurring payment fixing its series'
    /// terms; one completing account information starts its 180 days. A proof that loses its
    /// compare-and-set writes none of it.
    func proofCommitRecordsItsRiskCompletion() async throws {
        try await store.createUser(makeUser())
        var payment = makeChallenge("c1")
        payment.operation = .payment
        let recorded = makePayment("c1", at: t0, authorised: false, minor: 2_500)
        _ = try await store.insertChallenge(payment, auditing: [], admitting: RiskAdmission(payment: recorded, stateChange: nil), opening: nil)
        let counted = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { state in
            state.lowValue.add(900)
            return state
        }

        func completing(version: Int, at: Date) -> ProofCommit {
            var next = payment
            next.state = .completed
            next.completedAt = at
            return ProofCommit(
                challenge: next, expectedVersion: version, audit: [makeAuditDraft("challenge.completed", at: at)],
                risk: RiskCompletion(completing: next, userID: "u1", at: at))
        }
        // Lost: the challenge moved on meanwhile; the payment stays unauthorised, the counters stay.
        #expect(try await store.updateChallenge(payment, expectedVersion: 0))
        #expect(try await store.commitProof(completing(version: 0, at: t0 + 1)) == .versionConflict)
        #expect(try await store.riskPayments(userID: "u1", since: t0).isEmpty)
        #expect(try await store.riskState(key: "user:u1", as: RiskState.self) == counted)

        guard case .committed = try await store.commitProof(completing(version: 1, at: t0 + 2)) else {
            Issue.record("not committed")
            return
        }
        let authorised = try await store.riskPayments(userID: "u1", since: t0)
        #expect(authorised.map(\.challengeID) == ["c1"] && authorised.first?.authorisedAt == t0 + 2)
        let history = try await store.riskHistory(
            RiskHistoryQuery(userID: "u1", since: t0, hourSince: t0, daySince: t0, clientAddress: nil, payeeKey: nil))
        #expect(history.lastHourCount == 1 && history.lastDayAmountMinor == 2_500, "its running aggregates")
        let state = try await store.riskState(key: "user:u1", as: RiskState.self)
        #expect(state.lowValue == LowValueCounters(), "the counters start again")
        #expect(state.continuesSeries(payee: recorded.payeeKey, amount: recorded.amount, currency: "EUR"), "a recurring payment's terms")

        var information = makeChallenge("c2")
        information.operation = .accountInfo
        try await store.insertChallenge(information)
        information.state = .completed
        let completed = try await store.commitProof(
            ProofCommit(
                challenge: information, expectedVersion: 0,
                risk: RiskCompletion(completing: information, userID: "u1", at: t0 + 3)))
        guard case .committed = completed else {
            Issue.record("not committed: \(completed)")
            return
        }
        #expect(try await store.riskState(key: "user:u1", as: RiskState.self).accountInfoSCAAt == t0 + 3)
    }
}
