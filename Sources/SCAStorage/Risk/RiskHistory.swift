import Foundation

/// What transaction monitoring needs from a user's authorised payments, aggregated by the
/// store instead of read row by row: a payment read every payment of the user's
/// 90-day window and decoded each, so its cost grew with the user's payments.
public struct RiskHistory: Sendable, Equatable {
    /// Some payment in the window has a client address (no addresses: no basis to judge one).
    public var hasAddresses: Bool
    /// The queried address is among them.
    public var addressSeen: Bool
    /// The queried payee was paid in the window.
    public var payeeSeen: Bool
    /// The largest amount in the window, in EUR minor units; nil without payments.
    public var largestAmountMinor: Int64?
    /// Payments authorised after ``RiskHistoryQuery/hourSince``.
    public var lastHourCount: Int
    /// EUR minor units authorised after ``RiskHistoryQuery/daySince``.
    public var lastDayAmountMinor: Int64

    public init(
        hasAddresses: Bool = false, addressSeen: Bool = false, payeeSeen: Bool = false, largestAmountMinor: Int64? = nil,
        lastHourCount: Int = 0, lastDayAmountMinor: Int64 = 0
    ) {
        self.hasAddresses = hasAddresses
        self.addressSeen = addressSeen
        self.payeeSeen = payeeSeen
        self.largestAmountMinor = largestAmountMinor
        self.lastHourCount = lastHourCount
        self.lastDayAmountMinor = lastDayAmountMinor
    }

    /// The same aggregates over the user's authorised payments already read: what a store's
    /// query over its rows must equal.
    public init(payments: [RiskPaymentRecord], query: RiskHistoryQuery) {
        func time(_ payment: RiskPaymentRecord) -> Date { payment.authorisedAt ?? payment.createdAt }
        let recent = payments.filter { time($0) > query.since }
        let addresses = recent.compactMap(\.clientAddress)
        self.init(
            hasAddresses: !addresses.isEmpty,
            addressSeen: query.clientAddress.map(addresses.contains) ?? false,
            payeeSeen: query.payeeKey.map { payee in recent.contains { $0.payeeKey == payee } } ?? false,
            largestAmountMinor: recent.map(\.amountMinor).max(),
            lastHourCount: recent.filter { time($0) > query.hourSince }.count,
            lastDayAmountMinor: recent.filter { time($0) > query.daySince }.reduce(0) { $0 + $1.amountMinor })
    }
}

/// Whose history, from when, and which address and payee to look for.
public struct RiskHistoryQuery: Sendable, Equatable {
    public var userID: String
    /// Payments authorised strictly after this instant count.
    public var since: Date
    public var hourSince: Date
    public var daySince: Date
    public var clientAddress: String?
    public var payeeKey: String?

    public init(userID: String, since: Date, hourSince: Date, daySince: Date, clientAddress: String?, payeeKey: String?) {
        self.userID = userID
        self.since = since
        self.hourSince = hourSince
        self.daySince = daySince
        self.clientAddress = clientAddress
        self.payeeKey = payeeKey
    }
}
