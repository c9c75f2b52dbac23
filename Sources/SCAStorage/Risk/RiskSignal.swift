import Foundation
import SCACore

/// A named transaction-monitoring signal (RTS art. 2). A raised signal can only make things
/// stricter: it takes exemptions away (``blocks(_:)``) or refuses the operation (``refuses``);
/// it never lowers what an operation needs.
package enum RiskSignal: String, Codable, Sendable, CaseIterable {
    /// The payee's IBAN is on the configured deny list (compromised or mule account).
    case denyListedPayee = "deny_listed_payee"
    /// The device is on the configured deny list.
    case denyListedDevice = "deny_listed_device"
    /// Neither paid before (within the history window) nor trusted.
    case newPayee = "new_payee"
    /// Much more than the user's largest payment in the history window.
    case unusualAmount = "unusual_amount"
    /// The device was bound recently.
    case newDevice = "new_device"
    /// The client address is none of those of the user's recent payments.
    case newAddress = "new_address"
    /// Too many payments in the last hour.
    case velocityCount = "velocity_count"
    /// Too much paid in the last 24 hours.
    case velocityAmount = "velocity_amount"
    /// The amount cannot be converted to EUR (no configured rate): no threshold can be judged.
    case amountUnconverted = "amount_unconverted"
    /// The user rejected a decoupled operation as `not_me` recently: someone else
    /// holds their credentials, so nothing goes without SCA for a while.
    case reportedNotMe = "reported_not_me"

    /// The operation is refused whatever else holds.
    package var refuses: Bool { self == .denyListedPayee || self == .denyListedDevice }

    /// Whether this signal takes `exemption` away. A new payee only stops TRA (a low-value
    /// payment to a new shop is what art. 16 is for; a trusted or recurring payee is not new);
    /// every other signal stops every exemption.
    package func blocks(_ exemption: Exemption) -> Bool {
        switch self {
        case .newPayee: exemption == .tra
        default: true
        }
    }
}

/// The thresholds of transaction monitoring (RTS art. 2), always applied.
package struct MonitoringRules: Sendable, Equatable {
    /// IBANs (compact, upper case) and device ids refused outright.
    package var denyList: Set<String>
    /// Payments in the last hour above which `velocity_count` is raised (this one included).
    package var maxPaymentsPerHour: Int
    /// EUR minor units paid in the last 24 hours above which `velocity_amount` is raised.
    package var maxAmountPerDayMinor: Int64
    /// `unusual_amount` when a payment is more than this many times the largest in the window.
    package var unusualAmountFactor: Int64
    /// A device bound less than this many seconds ago raises `new_device`.
    package var newDeviceAge: TimeInterval
    /// How far back the history looks (payees, amounts, addresses).
    package var historyWindow: TimeInterval
    /// How long after a `not_me` rejection the user's operations raise `reported_not_me`.
    package var notMeWindow: TimeInterval = 30 * 86_400

    package init(
        denyList: Set<String> = [], maxPaymentsPerHour: Int = 10, maxAmountPerDayMinor: Int64 = 500_000,
        unusualAmountFactor: Int64 = 10, newDeviceAge: TimeInterval = 86_400, historyWindow: TimeInterval = 90 * 86_400
    ) {
        self.denyList = denyList
        self.maxPaymentsPerHour = maxPaymentsPerHour
        self.maxAmountPerDayMinor = maxAmountPerDayMinor
        self.unusualAmountFactor = unusualAmountFactor
        self.newDeviceAge = newDeviceAge
        self.historyWindow = historyWindow
    }
}

/// What monitoring looks at for one operation.
package struct MonitoredOperation: Sendable, Equatable {
    /// Payments only: the amount in EUR minor units; nil for a payment whose currency has no rate.
    package var amountMinor: Int64?
    package var isPayment: Bool
    package var payeeKey: String?
    package var iban: String?
    package var payeeTrusted: Bool
    package var deviceID: String?
    /// When the named device was bound.
    package var deviceBoundAt: Date?
    package var clientAddress: String?
    /// The user's last `not_me` rejection of an operation.
    package var notMeReportedAt: Date?

    package init(
        isPayment: Bool, amountMinor: Int64? = nil, payeeKey: String? = nil, iban: String? = nil, payeeTrusted: Bool = false,
        deviceID: String? = nil, deviceBoundAt: Date? = nil, clientAddress: String? = nil, notMeReportedAt: Date? = nil
    ) {
        self.notMeReportedAt = notMeReportedAt
        self.isPayment = isPayment
        self.amountMinor = amountMinor
        self.payeeKey = payeeKey
        self.iban = iban
        self.payeeTrusted = payeeTrusted
        self.deviceID = deviceID
        self.deviceBoundAt = deviceBoundAt
        self.clientAddress = clientAddress
    }
}

extension MonitoringRules {
    /// What to ask the store for `operation` at `now` (``SCAStore/riskHistory(_:)``).
    package func historyQuery(userID: String, for operation: MonitoredOperation, now: Date) -> RiskHistoryQuery {
        RiskHistoryQuery(
            userID: userID, since: now.addingTimeInterval(-historyWindow), hourSince: now.addingTimeInterval(-3_600),
            daySince: now.addingTimeInterval(-86_400), clientAddress: operation.clientAddress, payeeKey: operation.payeeKey)
    }

    /// The signals raised for `operation`, in ``RiskSignal`` order.
    /// - Parameter history: the user's authorised payments within ``historyWindow`` (any order).
    package func signals(for operation: MonitoredOperation, history: [RiskPaymentRecord], now: Date) -> [RiskSignal] {
        signals(
            for: operation, history: RiskHistory(payments: history, query: historyQuery(userID: "", for: operation, now: now)),
            now: now)
    }

    /// The signals raised for `operation`, in ``RiskSignal`` order, from the aggregates of the
    /// user's history that ``historyQuery(userID:for:now:)`` asks for.
    package func signals(for operation: MonitoredOperation, history: RiskHistory, now: Date) -> [RiskSignal] {
        var raised = Set<RiskSignal>()
        if let iban = operation.iban, denyList.contains(iban) { raised.insert(.denyListedPayee) }
        if let device = operation.deviceID, denyList.contains(device) { raised.insert(.denyListedDevice) }
        if let bound = operation.deviceBoundAt, now.timeIntervalSince(bound) < newDeviceAge { raised.insert(.newDevice) }
        if let reported = operation.notMeReportedAt, now.timeIntervalSince(reported) < notMeWindow { raised.insert(.reportedNotMe) }
        // An address is judged only against a history that has addresses: no history, no basis.
        if operation.clientAddress != nil, history.hasAddresses, !history.addressSeen {
            raised.insert(.newAddress)
        }
        if operation.isPayment {
            guard let amount = operation.amountMinor else {
                raised.insert(.amountUnconverted)
                return RiskSignal.allCases.filter(raised.contains)
            }
            if operation.payeeKey != nil, !operation.payeeTrusted, !history.payeeSeen {
                raised.insert(.newPayee)
            }
            if let largest = history.largestAmountMinor, amount > largest.multipliedReportingOverflow(by: unusualAmountFactor).partialValue {
                raised.insert(.unusualAmount)
            }
            if history.lastHourCount + 1 > maxPaymentsPerHour { raised.insert(.velocityCount) }
            if history.lastDayAmountMinor + amount > maxAmountPerDayMinor { raised.insert(.velocityAmount) }
        }
        return RiskSignal.allCases.filter(raised.contains)
    }
}
