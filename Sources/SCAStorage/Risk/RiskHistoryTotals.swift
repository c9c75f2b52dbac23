import Foundation

/// What a store keeps per user so that transaction monitoring reads a few rows whatever the
/// user's history, kept in the same write that authorises each payment:
///
/// - the user's payments counted and summed up to each one (running totals on the payment's
///   row, in the order of authorisation time, ties together): the payments after an instant
///   are the latest totals less the totals at that instant, two index seeks;
/// - when each payee and each client address was last paid from (and any address at all);
/// - the payments no later one reaches in amount (each larger than every payment after it):
///   the largest amount after an instant is the first of them after it.
///
/// Each is exact for any window, so ``RiskHistory`` is the same as the scan over the rows gave.
package struct RiskHistoryTotals: Sendable, Equatable {
    /// The last authorisation with a client address, with the queried address, to the queried payee.
    package var lastAddressAt: Date?
    package var addressSeenAt: Date?
    package var payeeSeenAt: Date?
    /// The largest amount authorised after ``RiskHistoryQuery/since``.
    package var largestAmountMinor: Int64?
    /// The user's authorised payments: all of them, and those up to ``RiskHistoryQuery/hourFrom``.
    package var count: Int64
    package var countThroughHourFrom: Int64
    /// EUR minor units: all, and up to ``RiskHistoryQuery/dayFrom``.
    package var sumMinor: Int64
    package var sumThroughDayFrom: Int64

    package init(
        lastAddressAt: Date? = nil, addressSeenAt: Date? = nil, payeeSeenAt: Date? = nil, largestAmountMinor: Int64? = nil,
        count: Int64 = 0, countThroughHourFrom: Int64 = 0, sumMinor: Int64 = 0, sumThroughDayFrom: Int64 = 0
    ) {
        self.lastAddressAt = lastAddressAt
        self.addressSeenAt = addressSeenAt
        self.payeeSeenAt = payeeSeenAt
        self.largestAmountMinor = largestAmountMinor
        self.count = count
        self.countThroughHourFrom = countThroughHourFrom
        self.sumMinor = sumMinor
        self.sumThroughDayFrom = sumThroughDayFrom
    }

    /// The aggregates of the payments authorised after `query.since`.
    package func history(for query: RiskHistoryQuery) -> RiskHistory {
        func recent(_ date: Date?) -> Bool { date.map { $0 > query.since } ?? false }
        return RiskHistory(
            hasAddresses: recent(lastAddressAt), addressSeen: recent(addressSeenAt), payeeSeen: recent(payeeSeenAt),
            largestAmountMinor: largestAmountMinor, lastHourCount: Int(count - countThroughHourFrom),
            lastDayAmountMinor: sumMinor - sumThroughDayFrom)
    }
}

extension RiskHistoryQuery {
    /// Payments authorised after this instant are the last hour's: after `hourSince` and
    /// within the window, as the scan counted them.
    package var hourFrom: Date { max(since, hourSince) }
    /// The same for the last day.
    package var dayFrom: Date { max(since, daySince) }
}
