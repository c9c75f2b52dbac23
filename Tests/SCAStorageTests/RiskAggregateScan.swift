import Foundation
import SCACore
import SCAStorage
import Testing

/// The figures a payment's risk decision reads, worked out by scanning every row as the stores
/// did before they kept running aggregates: what the aggregates must equal.
struct RiskAggregateScan {
    var payments: [RiskPaymentRecord]
    var reports: [FraudReportRecord]

    /// ``RiskHistory/init(payments:query:)`` over the user's authorised payments in the window.
    func history(_ query: RiskHistoryQuery) -> RiskHistory {
        RiskHistory(
            payments: payments.filter { $0.userID == query.userID && ($0.authorisedAt.map { $0 > query.since } ?? false) },
            query: query)
    }

    /// The sum of the counted amounts authorised in `[from, to)`, per type; zero left out.
    func volume(from: Date, to: Date) -> [PaymentType: Int64] {
        var volumes: [PaymentType: Int64] = [:]
        for payment in payments {
            guard let at = payment.authorisedAt, at >= from, at < to, payment.countsForFraudRate else { continue }
            volumes[payment.type, default: 0] += payment.amountMinor
        }
        return volumes.filter { $0.value != 0 }
    }

    func fraud(from: Date, to: Date) -> [PaymentType: Int64] {
        var volumes: [PaymentType: Int64] = [:]
        for report in reports where report.occurredAt >= from && report.occurredAt < to {
            volumes[report.type, default: 0] += report.amountMinor
        }
        return volumes
    }

    /// Compares the store's figures with the scan's at each of `instants`: every user's history
    /// for the default windows (90 days, an hour, a day) and a short one, with addresses and
    /// payees seen and not; the TRA window `[now − 90 days, now + 1 s)`; the quarter-like and
    /// day-straddling ranges around it.
    func expectStoreAgrees(_ store: any SCAStore, at instants: [Date], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let users = Set(payments.map(\.userID)).sorted() + ["nobody"]
        let addresses = Set(payments.compactMap(\.clientAddress)).sorted().prefix(3).map { Optional($0) } + [nil, "203.0.113.99"]
        let payees = Set(payments.map(\.payeeKey)).sorted().prefix(3).map { Optional($0) } + [nil, "payee-none"]
        for now in instants {
            for user in users {
                for window in [90 * 86_400.0, 1_800] {
                    for (address, payee) in zip(addresses, payees.reversed()) {
                        let query = RiskHistoryQuery(
                            userID: user, since: now - window, hourSince: now - 3_600, daySince: now - 86_400,
                            clientAddress: address, payeeKey: payee)
                        #expect(
                            try await store.riskHistory(query) == history(query), "\(user) at \(now), window \(window)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
            let ranges: [(Date, Date)] = [
                (now - 90 * 86_400, now + 1), (now - 86_400 * 2.5, now - 3_600), (now - 1_000, now - 10), (now + 10, now - 10),
                (Date(timeIntervalSince1970: 0), now + 1),
            ]
            for (from, to) in ranges {
                #expect(try await store.riskPaymentVolume(from: from, to: to) == volume(from: from, to: to), sourceLocation: sourceLocation)
                #expect(try await store.fraudVolume(from: from, to: to) == fraud(from: from, to: to), sourceLocation: sourceLocation)
            }
        }
    }
}

/// A small deterministic generator, so that a failing case can be run again as it was.
struct SeededNumbers {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
