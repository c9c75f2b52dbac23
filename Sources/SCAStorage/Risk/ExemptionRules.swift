import Foundation
import SCACore

/// Which exemptions are switched on (each off by default) and their thresholds, RTS values by
/// default.
package struct ExemptionRules: Sendable, Equatable {
    /// Art. 16; nil: off.
    package var lowValue: LowValueRules?
    /// Art. 13.
    package var trustedBeneficiaries: Bool
    /// Art. 14.
    package var recurring: Bool
    /// Art. 18.
    package var tra: Bool
    /// Art. 10: how long an SCA for account information lasts; nil: off.
    package var accountInfoInterval: TimeInterval?

    package init(
        lowValue: LowValueRules? = nil, trustedBeneficiaries: Bool = false, recurring: Bool = false, tra: Bool = false,
        accountInfoInterval: TimeInterval? = nil
    ) {
        self.lowValue = lowValue
        self.trustedBeneficiaries = trustedBeneficiaries
        self.recurring = recurring
        self.tra = tra
        self.accountInfoInterval = accountInfoInterval
    }

    /// Whether any exemption is on (otherwise nothing but monitoring runs).
    package var anyEnabled: Bool {
        lowValue != nil || trustedBeneficiaries || recurring || tra || accountInfoInterval != nil
    }
}

/// Everything an exemption decision depends on, gathered by the server (store reads) so that
/// the decision itself is pure.
package struct ExemptionInputs: Sendable, Equatable {
    package var operation: OperationKind
    /// The caller presented a live session of this user: an exemption waives *strong*
    /// authentication, never identification.
    package var hasSession: Bool
    package var signals: [RiskSignal]
    /// Payments: EUR minor units (nil when unconverted).
    package var amountMinor: Int64?
    package var payeeTrusted: Bool
    /// The request says the payment belongs to a recurring series.
    package var recurringRequested: Bool
    /// Its amount and payee match the series' first, authenticated, payment.
    package var continuesSeries: Bool
    /// The largest amount TRA may exempt now (nil: TRA allows nothing).
    package var traMaxMinor: Int64?
    /// Account information: the last SCA for it.
    package var accountInfoSCAAt: Date?
    /// A reason no exemption may apply whatever the rules say: `policy_raised` (a rule such
    /// as the high-value one asks for more than the operation's base), `user_locked`,
    /// `contended` (parallel payments of the user kept changing the counters it read).
    package var withheld: String?
    package var now: Date

    package init(
        operation: OperationKind, hasSession: Bool, signals: [RiskSignal], amountMinor: Int64? = nil,
        payeeTrusted: Bool = false, recurringRequested: Bool = false, continuesSeries: Bool = false,
        traMaxMinor: Int64? = nil, accountInfoSCAAt: Date? = nil, withheld: String? = nil, now: Date
    ) {
        self.withheld = withheld
        self.operation = operation
        self.hasSession = hasSession
        self.signals = signals
        self.amountMinor = amountMinor
        self.payeeTrusted = payeeTrusted
        self.recurringRequested = recurringRequested
        self.continuesSeries = continuesSeries
        self.traMaxMinor = traMaxMinor
        self.accountInfoSCAAt = accountInfoSCAAt
        self.now = now
    }
}

/// The exemption an operation may go under, before the low-value counters are consulted, with
/// the verdict of every rule (for the audit entry: a supervisor reads why each did or did not
/// apply).
package struct ExemptionCandidate: Sendable, Equatable {
    /// The first rule that applies, in the order trusted beneficiary, recurring, TRA, low value
    /// (the counter-free ones first, so the low-value allowance is kept for when it is needed).
    package var exemption: Exemption?
    /// Each rule considered and its verdict: `applies`, `disabled`, `no_session`,
    /// `signal:<name>`, `over_amount`, `not_trusted`, `not_recurring`, `series_changed`,
    /// `first_access`, `expired`, `band_unavailable`.
    package var verdicts: [(Exemption, String)]

    package static func == (lhs: ExemptionCandidate, rhs: ExemptionCandidate) -> Bool {
        lhs.exemption == rhs.exemption && lhs.verdicts.map { "\($0.0.rawValue)=\($0.1)" } == rhs.verdicts.map { "\($0.0.rawValue)=\($0.1)" }
    }

    /// `tra=over_amount,low_value=applies`.
    package var verdictSummary: String { verdicts.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: ",") }
}

extension ExemptionRules {
    /// The rules an operation is judged by: payments by arts. 13, 14, 18 and 16, account
    /// information by art. 10, every other operation by none.
    package static func considered(for operation: OperationKind) -> [Exemption] {
        switch operation {
        case .payment: [.trustedBeneficiary, .recurring, .tra, .lowValue]
        case .accountInfo: [.accountInfo180d]
        default: []
        }
    }

    /// Pure: which exemption `inputs` qualify for (the low-value counters aside).
    package func candidate(for inputs: ExemptionInputs) -> ExemptionCandidate {
        var verdicts: [(Exemption, String)] = []
        var chosen: Exemption?
        for exemption in Self.considered(for: inputs.operation) {
            let verdict = self.verdict(exemption, inputs)
            verdicts.append((exemption, verdict))
            if verdict == "applies", chosen == nil { chosen = exemption }
        }
        return ExemptionCandidate(exemption: chosen, verdicts: verdicts)
    }

    private func verdict(_ exemption: Exemption, _ inputs: ExemptionInputs) -> String {
        let enabled: Bool = switch exemption {
        case .lowValue: lowValue != nil
        case .trustedBeneficiary: trustedBeneficiaries
        case .recurring: recurring
        case .tra: tra
        case .accountInfo180d: accountInfoInterval != nil
        }
        guard enabled else { return "disabled" }
        if let withheld = inputs.withheld { return withheld }
        guard inputs.hasSession else { return "no_session" }
        if let signal = inputs.signals.first(where: { $0.blocks(exemption) }) { return "signal:\(signal.rawValue)" }
        switch exemption {
        case .trustedBeneficiary:
            return inputs.payeeTrusted ? "applies" : "not_trusted"
        case .recurring:
            guard inputs.recurringRequested else { return "not_recurring" }
            return inputs.continuesSeries ? "applies" : "series_changed"
        case .tra:
            guard let max = inputs.traMaxMinor else { return "band_unavailable" }
            guard let amount = inputs.amountMinor, amount <= max else { return "over_amount" }
            return "applies"
        case .lowValue:
            guard let rules = lowValue, let amount = inputs.amountMinor, amount <= rules.maxAmountMinor else { return "over_amount" }
            // Whether the counters still admit it is decided with them (``RiskState/admitPayment``).
            return "applies"
        case .accountInfo180d:
            guard let last = inputs.accountInfoSCAAt, let interval = accountInfoInterval else { return "first_access" }
            return inputs.now.timeIntervalSince(last) <= interval ? "applies" : "expired"
        }
    }
}
