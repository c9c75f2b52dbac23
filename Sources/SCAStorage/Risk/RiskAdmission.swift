import Foundation

/// A payment the risk engine decided on, written by the write that opens its challenge
/// (``SCAStore/insertChallenge(_:auditing:admitting:opening:)``): the decision, the payment and the
/// challenge commit together, in one write transaction rather than two.
public struct RiskAdmission: Sendable, Equatable {
    /// The payment as recorded: authorised at once when let through without SCA.
    public var payment: RiskPaymentRecord
    /// The counters a payment let through without SCA moved. Nil when SCA is asked: asking
    /// moves no counter, so that decision holds whatever another payment changed meanwhile.
    public var stateChange: RiskStateChange?

    public init(payment: RiskPaymentRecord, stateChange: RiskStateChange?) {
        self.payment = payment
        self.stateChange = stateChange
    }
}

/// A risk state written only if it is still the one the decision was made from: parallel
/// payments of one user read the same counters, and only the first to write may count on
/// them; the others decide again from what it left.
public struct RiskStateChange: Sendable, Equatable {
    /// ``RiskStateValue/keyPrefix`` and an id.
    public var key: String
    /// The stored text the decision read (``SCAStore/riskStateText(key:)``); nil when none
    /// was stored.
    public var readText: String?
    public var newText: String

    public init(key: String, readText: String?, newText: String) {
        self.key = key
        self.readText = readText
        self.newText = newText
    }
}
