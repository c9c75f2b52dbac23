import Foundation
import SCACore
import SCAStorage
import Testing

// The risk engine's store operations (v3-risk), checked on every backend.
extension StoreConformance {
    func makePayment(
        _ challengeID: String, user: String = "u1", at: Date, authorised: Bool = true, minor: Int64 = 1_000,
        type: PaymentType = .creditTransfer, exemption: Exemption? = nil, digest: String? = nil
    ) -> RiskPaymentRecord {
        RiskPaymentRecord(
            challengeID: challengeID, userID: user, createdAt: at, authorisedAt: authorised ? at : nil, amountMinor: minor,
            amount: EURAmount.text(minor), currency: "EUR", type: type, payeeKey: "payee-\(challengeID)",
            iban: "FR7630006000011234567890189", transactionDigest: digest ?? "txn-\(challengeID)", clientAddress: "192.0.2.1",
            deviceID: nil, exemption: exemption, recurring: true)
    }

    /// A state round-trips (a fresh one when never written), changes only through the
    /// transition, and keys are apart.
    func riskStateRoundTrip() async throws {
        let fresh = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { $0 }
        #expect(fresh == RiskState())
        let added = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { state in
            state.accountInfoSCAAt = t0 + 0.5
            state.lowValue.add(1_234)
            state.paymentAuthenticated(seriesPayee: "p", amount: "50.00", currency: "EUR", at: t0)
            return state.addBeneficiary(TrustedBeneficiary(id: "ben_1", name: "ACME", iban: "FR7630006000011234567890189", addedAt: t0))
        }
        #expect(added?.id == "ben_1")
        let loaded = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { $0 }
        #expect(loaded.accountInfoSCAAt == t0 + 0.5)
        #expect(loaded.lowValue == LowValueCounters())  // reset by the authenticated payment
        #expect(loaded.continuesSeries(payee: "p", amount: "50.00", currency: "EUR"))
        #expect(loaded.trusts(iban: "FR7630006000011234567890189"))
        #expect(try await store.updateRiskState(key: "user:u2", as: RiskState.self) { $0 } == RiskState())
        let provider = try await store.updateRiskState(key: "provider", as: ProviderRiskState.self) {
            $0.update(suspended: ["credit_transfer:500"])
        }
        #expect(provider.stopped == ["credit_transfer:500"])
        #expect(try await store.updateRiskState(key: "provider", as: ProviderRiskState.self) { $0.suspendedBands } == ["credit_transfer:500"])
    }

    /// A payment's decision commits with its challenge: a payment SCA is asked for (no state
    /// change) and one let through (its counters moved, its aggregates kept) are stored with
    /// their challenges and entries. A state changed since the decision read it is a conflict
    /// that stores nothing, as is a challenge id taken; of parallel decisions made from one
    /// read, exactly one is stored.
    func riskPaymentAdmittedWithItsChallenge() async throws {
        let key = "user:u1"
        let asked = makePayment("c1", at: t0, authorised: false)
        let linked = try await store.insertChallenge(
            makeChallenge("c1"), auditing: [makeAuditDraft("challenge.created", at: t0)],
            admitting: RiskAdmission(payment: asked, stateChange: nil), opening: nil)
        #expect(linked.map(\.draft.event) == ["challenge.created"])
        #expect(try await store.challenge(id: "c1") != nil)
        #expect(try await store.riskStateText(key: key) == nil)
        #expect(try await store.riskPayments(userID: "u1", since: t0).isEmpty)

        var counted = RiskState()
        counted.lowValue.add(1_000)
        let first = RiskStateChange(key: key, readText: nil, newText: try RiskStateCodec.encode(counted))
        // Let through: stored completed, with the session its tokens name.
        let session = makeSession("s2")
        _ = try await store.insertChallenge(
            makeChallenge("c2"), auditing: [makeAuditDraft("challenge.created", at: t0 + 1)],
            admitting: RiskAdmission(payment: makePayment("c2", at: t0 + 1, exemption: .lowValue), stateChange: first),
            opening: SessionOpening(session: session, refreshToken: nil))
        #expect(try await store.riskState(key: key, as: RiskState.self) == counted)
        #expect(try await store.session(id: "s2") == session)
        #expect(try await store.riskPayments(userID: "u1", since: t0).map(\.challengeID) == ["c2"])
        let history = try await store.riskHistory(
            RiskHistoryQuery(userID: "u1", since: t0 - 1, hourSince: t0 - 1, daySince: t0 - 1, clientAddress: nil, payeeKey: nil))
        #expect(history.lastHourCount == 1 && history.largestAmountMinor == 1_000)
        // The payment SCA was asked for is there, not yet authorised: authorising it finds it.
        #expect(try await store.authoriseRiskPayment(challengeID: "c1", at: t0 + 2)?.challengeID == "c1")

        // Decided from no state, but c2 wrote one since: nothing of c3 is stored.
        let entriesBefore = try await store.auditEntries(after: 0, limit: 100).count
        var stale = RiskAdmission(payment: makePayment("c3", at: t0 + 3, exemption: .lowValue), stateChange: first)
        await #expect(throws: StoreError.conflict("riskState")) {
            try await store.insertChallenge(
                makeChallenge("c3"), auditing: [makeAuditDraft("challenge.created", at: t0 + 3)], admitting: stale,
                opening: SessionOpening(session: makeSession("s3"), refreshToken: nil))
        }
        #expect(try await store.challenge(id: "c3") == nil)
        #expect(try await store.session(id: "s3") == nil)
        #expect(try await store.auditEntries(after: 0, limit: 100).count == entriesBefore)
        #expect(try await store.riskPayments(userID: "u1", since: t0).count == 2)
        #expect(try await store.riskState(key: key, as: RiskState.self) == counted)

        // Decided again from what is stored: it goes through.
        var again = counted
        again.lowValue.add(500)
        stale.stateChange = RiskStateChange(key: key, readText: try await store.riskStateText(key: key), newText: try RiskStateCodec.encode(again))
        _ = try await store.insertChallenge(makeChallenge("c3"), auditing: [], admitting: stale, opening: nil)
        #expect(try await store.riskState(key: key, as: RiskState.self) == again)

        // A challenge id taken: nothing stored, the state as it was.
        var taken = counted
        taken.lowValue.add(7)
        let duplicate = RiskAdmission(
            payment: makePayment("c4", at: t0 + 4, exemption: .lowValue),
            stateChange: RiskStateChange(key: key, readText: try await store.riskStateText(key: key), newText: try RiskStateCodec.encode(taken)))
        await #expect(throws: StoreError.conflict("id")) {
            try await store.insertChallenge(makeChallenge("c3"), auditing: [], admitting: duplicate, opening: nil)
        }
        #expect(try await store.riskState(key: key, as: RiskState.self) == again)
        #expect(try await store.riskPayments(userID: "u1", since: t0).count == 3)

        // Six decisions from one read, in parallel: one is stored, the others are told to decide again.
        let read = try await store.riskStateText(key: key)
        var next = again
        next.lowValue.add(100)
        let change = RiskStateChange(key: key, readText: read, newText: try RiskStateCodec.encode(next))
        let stored = try await inParallel(6) {
            let id = "p-\(UUID().uuidString)"
            do {
                _ = try await store.insertChallenge(
                    makeChallenge(id), auditing: [],
                    admitting: RiskAdmission(payment: makePayment(id, at: t0 + 5, minor: 100, exemption: .lowValue), stateChange: change), opening: nil)
                return true
            } catch StoreError.conflict("riskState") {
                return false
            }
        }
        #expect(stored.filter { $0 }.count == 1)
        #expect(try await store.riskState(key: key, as: RiskState.self) == next)
        #expect(try await store.riskPayments(userID: "u1", since: t0).count == 4)
    }

    /// Authorising a payment and updating the state with it is one write: the transition sees
    /// the payment as authorised the first time, nil after (or for an unknown challenge), and
    /// runs either way.
    func riskPaymentAuthorisedWithItsState() async throws {
        try await store.recordRiskPayment(makePayment("c1", at: t0, authorised: false, minor: 2_500))
        let key = "user:u1"
        let authorised = try await store.authoriseRiskPayment(challengeID: "c1", at: t0 + 5, updating: key, as: RiskState.self) {
            state, payment in
            state.lowValue.add(payment?.amountMinor ?? 1)
        }
        #expect(authorised?.authorisedAt == t0 + 5)
        #expect(try await store.riskState(key: key, as: RiskState.self).lowValue.sumMinor == 2_500)
        let again = try await store.authoriseRiskPayment(challengeID: "c1", at: t0 + 6, updating: key, as: RiskState.self) {
            state, payment in
            state.lowValue.add(payment?.amountMinor ?? 1)
        }
        #expect(again == nil)
        #expect(try await store.riskState(key: key, as: RiskState.self).lowValue.sumMinor == 2_501)
        #expect(try await store.riskPayments(userID: "u1", since: t0).first?.authorisedAt == t0 + 5)
    }

    /// The read without a transaction sees what the last update committed, a fresh state for a
    /// key never written, and changes nothing.
    func riskStateReadsWhatWasCommitted() async throws {
        #expect(try await store.riskState(key: "user:u1", as: RiskState.self) == RiskState())
        let written = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { state in
            state.accountInfoSCAAt = t0 + 1
            state.lowValue.add(700)
            return state
        }
        #expect(try await store.riskState(key: "user:u1", as: RiskState.self) == written)
        #expect(try await store.riskState(key: "user:u1", as: RiskState.self) == written)
        #expect(try await store.riskState(key: "user:u2", as: RiskState.self) == RiskState())
        #expect(try await store.riskState(key: "provider", as: ProviderRiskState.self) == ProviderRiskState())
        // The update after the reads still starts from what was committed.
        #expect(try await store.updateRiskState(key: "user:u1", as: RiskState.self) { $0 } == written)
    }

    /// Twenty parallel low-value admissions for one user: exactly the count limit goes through.
    func parallelLowValueAdmissionsGrantTheLimit() async throws {
        let rules = LowValueRules(limit: .count)
        let granted = try await inParallel(20) {
            try await store.updateRiskState(key: "user:u1", as: RiskState.self) {
                $0.admitPayment(candidate: .lowValue, amountMinor: 500, lowValue: rules).granted
            }
        }
        #expect(granted.compactMap { $0 }.count == 5)
        let state = try await store.updateRiskState(key: "user:u1", as: RiskState.self) { $0 }
        #expect(state.lowValue == LowValueCounters(count: 5, sumMinor: 2_500))
    }

    /// The monitoring aggregates the store computes equal those over the user's authorised
    /// payments read row by row, for addresses and payees seen or not, absent or not, at the
    /// window's edges, with another user's and unauthorised payments beside them.
    func riskHistoryAggregates() async throws {
        let now = t0 + 200_000
        var payments: [RiskPaymentRecord] = []
        for (index, (offset, minor)) in [(-100_000.0, 7_000), (-90_000, 100), (-86_400, 50), (-3_600, 900), (-3_000, 30), (-10, 200)]
            .enumerated()
        {
            var payment = makePayment("h\(index)", at: now + offset, minor: Int64(minor))
            payment.clientAddress = index == 2 ? nil : "192.0.2.\(index)"
            payment.payeeKey = "payee-\(index % 3)"
            payments.append(payment)
        }
        payments.append(makePayment("h-unauthorised", at: now - 5, authorised: false, minor: 90_000))
        payments.append(makePayment("h-other", user: "u2", at: now - 5, minor: 80_000))
        for payment in payments { try await store.recordRiskPayment(payment) }
        let mine = payments.filter { $0.userID == "u1" && $0.authorisedAt != nil }

        #expect(try await store.riskHistory(
            RiskHistoryQuery(userID: "nobody", since: t0, hourSince: now, daySince: now, clientAddress: "192.0.2.1", payeeKey: "payee-0"))
            == RiskHistory())
        for window in [150_000.0, 100_000, 95_000, 86_400, 1_000] {
            for address in [nil, "192.0.2.1", "192.0.2.2", "198.51.100.7"] {
                for payee in [nil, "payee-0", "payee-2", "payee-9"] {
                    let query = RiskHistoryQuery(
                        userID: "u1", since: now - window, hourSince: now - 3_600, daySince: now - 86_400,
                        clientAddress: address, payeeKey: payee)
                    let expected = RiskHistory(payments: mine.filter { $0.authorisedAt! > query.since }, query: query)
                    #expect(try await store.riskHistory(query) == expected, "window \(window), \(address ?? "-"), \(payee ?? "-")")
                }
            }
        }
    }

    /// A payment is authorised once; history, lookups and volumes see authorised ones only, and
    /// volumes leave out exemptions other than TRA.
    func riskPaymentsAndVolumes() async throws {
        try await store.recordRiskPayment(makePayment("c1", at: t0, authorised: false, minor: 10_000))
        await #expect(throws: StoreError.conflict("challengeID")) {
            try await store.recordRiskPayment(makePayment("c1", at: t0))
        }
        try await store.recordRiskPayment(makePayment("c2", at: t0 + 10, minor: 2_000, exemption: .tra))
        try await store.recordRiskPayment(makePayment("c3", at: t0 + 20, minor: 3_000, exemption: .lowValue))
        try await store.recordRiskPayment(makePayment("c4", at: t0 + 30, minor: 4_000, type: .card))
        try await store.recordRiskPayment(makePayment("c5", user: "u2", at: t0 + 40, minor: 5_000))
        #expect(try await store.riskPayments(userID: "u1", since: t0).map(\.challengeID) == ["c4", "c3", "c2"])
        #expect(try await store.riskPayment(transactionDigest: "txn-c1") == nil)

        let authorised = try #require(try await store.authoriseRiskPayment(challengeID: "c1", at: t0 + 50))
        #expect(authorised.authorisedAt == t0 + 50)
        #expect(authorised == makePayment("c1", at: t0, authorised: false, minor: 10_000).with(authorisedAt: t0 + 50))
        #expect(try await store.authoriseRiskPayment(challengeID: "c1", at: t0 + 60) == nil)
        #expect(try await store.authoriseRiskPayment(challengeID: "nope", at: t0 + 60) == nil)
        #expect(try await store.riskPayment(transactionDigest: "txn-c1")?.challengeID == "c1")
        #expect(try await store.riskPayments(userID: "u1", since: t0 + 25).map(\.challengeID) == ["c1", "c4"])

        let volume = try await store.riskPaymentVolume(from: t0, to: t0 + 100)
        #expect(volume == [.creditTransfer: 10_000 + 2_000 + 5_000, .card: 4_000])
        #expect(try await store.riskPaymentVolume(from: t0 + 10, to: t0 + 40) == [.creditTransfer: 2_000, .card: 4_000])
    }

    /// A `txn` is reported once; reports without one are all kept; volumes by when they occurred.
    func fraudReportsCountOnce() async throws {
        let report = FraudReportRecord(id: "fr1", transactionDigest: "txn-1", amountMinor: 700, type: .card, occurredAt: t0, reportedAt: t0 + 5)
        try await store.addFraudReport(report)
        await #expect(throws: StoreError.conflict("transactionDigest")) {
            try await store.addFraudReport(FraudReportRecord(
                id: "fr2", transactionDigest: "txn-1", amountMinor: 700, type: .card, occurredAt: t0, reportedAt: t0 + 6))
        }
        for id in ["fr3", "fr4"] {
            try await store.addFraudReport(FraudReportRecord(
                id: id, transactionDigest: nil, amountMinor: 100, type: .creditTransfer, occurredAt: t0 + 10, reportedAt: t0 + 10))
        }
        #expect(try await store.fraudVolume(from: t0, to: t0 + 11) == [.card: 700, .creditTransfer: 200])
        #expect(try await store.fraudVolume(from: t0 + 1, to: t0 + 11) == [.creditTransfer: 200])
        #expect(try await store.fraudVolume(from: t0 + 11, to: t0 + 20) == [:])
    }
}

// The running aggregates a payment reads instead of the rows (v4-risk-aggregates).
extension StoreConformance {
    /// Monitoring's figures and the fraud rates' volumes, read from the aggregates, equal the
    /// scan over the same rows: three users' payments interleaved over 140 days, of both
    /// types, under every exemption, some authorised later than payments after them (out of
    /// order), some at the same instant, some never; fraud reports on old payments, at
    /// midnight and just before it; at instants that leave payments behind the 90-day window.
    func riskAggregatesEqualTheScan() async throws {
        var numbers = SeededNumbers(seed: 20_260_127)
        var scan = RiskAggregateScan(payments: [], reports: [])
        var pending: [RiskPaymentRecord] = []
        var last = t0
        let exemptions: [Exemption?] = [nil, nil, .tra, .lowValue, .trustedBeneficiary, .recurring]
        for index in 0..<160 {
            let at = numbers.next(below: 8) == 0 ? last : t0 + Double(index) * 75_600 + Double(numbers.next(below: 4)) * 0.5
            last = at
            var payment = makePayment(
                "a\(index)", user: "u\(numbers.next(below: 3))", at: at, authorised: false,
                minor: [300, 800, 800, 1_500, 5_000, 200][numbers.next(below: 6)],
                type: numbers.next(below: 3) == 0 ? .card : .creditTransfer, exemption: exemptions[numbers.next(below: exemptions.count)])
            payment.payeeKey = "payee-\(numbers.next(below: 5))"
            payment.clientAddress = [nil, "192.0.2.1", "192.0.2.2", "198.51.100.3"][numbers.next(below: 4)]
            switch numbers.next(below: 10) {
            case 0..<5:
                payment.authorisedAt = at
                try await store.recordRiskPayment(payment)
                scan.payments.append(payment)
            case 5..<7:
                // Authorised as it is recorded, with its challenge, as a payment let through is.
                let record = payment.with(authorisedAt: at)
                _ = try await store.insertChallenge(
                    makeChallenge(record.challengeID, userID: record.userID), auditing: [],
                    admitting: RiskAdmission(payment: record, stateChange: nil), opening: nil)
                scan.payments.append(record)
            case 7..<9:
                // Authorised a little after it was made, but only once later payments are in.
                try await store.recordRiskPayment(payment)
                pending.append(payment)
            default:
                try await store.recordRiskPayment(payment)
                scan.payments.append(payment)
            }
            if pending.count == 3 || index == 159 {
                for (number, waiting) in pending.enumerated() {
                    let at = waiting.createdAt + 60
                    let authorised = number.isMultiple(of: 2)
                        ? try await store.authoriseRiskPayment(challengeID: waiting.challengeID, at: at)
                        : try await store.authoriseRiskPayment(
                            challengeID: waiting.challengeID, at: at, updating: "user:\(waiting.userID)", as: RiskState.self
                        ) { _, _ in }
                    #expect(authorised == waiting.with(authorisedAt: at))
                    scan.payments.append(waiting.with(authorisedAt: at))
                }
                pending = []
            }
            if index == 80 {
                try await scan.expectStoreAgrees(store, at: [t0 + 75_600 * 80, t0 + 75_600 * 40])
            }
        }
        let midnight = Date(timeIntervalSince1970: (t0.timeIntervalSince1970 / 86_400).rounded(.up) * 86_400 + 86_400 * 20)
        let occurrences = [
            midnight, Date(timeIntervalSince1970: midnight.timeIntervalSince1970.nextDown), midnight + 86_400 * 30,
            midnight + 0.5,
        ] + scan.payments.compactMap(\.authorisedAt).enumerated().filter { $0.offset % 11 == 0 }.map(\.element)
        for (index, occurred) in occurrences.enumerated() {
            let report = FraudReportRecord(
                id: "fr\(index)", transactionDigest: index.isMultiple(of: 3) ? nil : "txn-fr\(index)", amountMinor: Int64(50 + index * 7),
                type: index.isMultiple(of: 4) ? .card : .creditTransfer, occurredAt: occurred, reportedAt: t0 + 86_400 * 150)
            try await store.addFraudReport(report)
            scan.reports.append(report)
        }
        let end = t0 + 75_600 * 160
        try await scan.expectStoreAgrees(
            store,
            at: [
                end, end - 75_600 * 7.5, t0 + 86_400 * 91, t0 + 86_400 * 120, end + 86_400 * 30, end + 86_400 * 95,
                midnight + 86_400 * 90,
            ])
    }

    /// Payments of several users admitted at once, authorised at instants given out in an
    /// order other than the one they commit in: the aggregates still equal the scan.
    func riskAggregatesUnderParallelPayments() async throws {
        var payments: [RiskPaymentRecord] = []
        for index in 0..<24 {
            let at: Date = t0 + Double((index * 7) % 24) * 10
            let minor = Int64(100 * (1 + (index * 5) % 9))
            let type: PaymentType = index % 4 == 0 ? .card : .creditTransfer
            let exemption: Exemption? = index % 5 == 0 ? .lowValue : nil
            payments.append(makePayment("par\(index)", user: "u\(index % 3)", at: at, minor: minor, type: type, exemption: exemption))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for payment in payments {
                group.addTask {
                    _ = try await store.insertChallenge(
                        makeChallenge(payment.challengeID, userID: payment.userID), auditing: [],
                        admitting: RiskAdmission(payment: payment, stateChange: nil), opening: nil)
                }
            }
            try await group.waitForAll()
        }
        try await RiskAggregateScan(payments: payments, reports: []).expectStoreAgrees(store, at: [t0 + 120, t0 + 300, t0 + 3_700])
    }
}

extension RiskPaymentRecord {
    func with(authorisedAt: Date) -> RiskPaymentRecord {
        var copy = self
        copy.authorisedAt = authorisedAt
        return copy
    }
}
