import Foundation
import Logging
import SCACore
import SCAStorage

/// The risk engine: transaction monitoring (RTS art. 2) on every payment and
/// account-information challenge, the exemptions switched on (arts. 10, 13, 14, 16, 18), and
/// the fraud rates that keep TRA honest (arts. 19–21).
///
/// The decisions are pure code in SCAStorage (``MonitoringRules``, ``ExemptionRules``,
/// ``RiskState``, ``TRABand``); this service loads what they need and applies them. What a
/// decision records (the payment, the counters it moved, its audit entry) is written by the
/// write that opens its challenge.
package struct RiskService: EngineService, Sendable {
    package let context: EngineContext
    let settings: RiskSettings
    /// EUR value of one unit of each other currency (`exchangeRates`).
    let eurPerUnit: [String: Decimal]
    /// The stopped TRA bands, worked out at most once a minute rather than for every payment.
    let suspensions = TRASuspensionCache()

    init(context: EngineContext) {
        self.context = context
        self.settings = context.configuration.risk
        self.eurPerUnit = context.configuration.exchangeRates.compactMapValues { Decimal(plainText: $0) }
    }

    /// What a challenge being opened is about, as the risk engine sees it.
    struct Request: Sendable {
        var challengeID: String
        var operation: OperationKind
        var transaction: Transaction?
        var paymentType: PaymentType
        var recurring: Bool
        var user: UserRecord
        var device: DeviceRecord?
        /// The caller presented a live session of this user.
        var hasSession: Bool
        /// The policy (high-value rule) raised the categories above the operation's base.
        var policyRaised: Bool
    }

    /// What was decided for a challenge about to open: the exemption granted (nil: SCA is
    /// needed), the decision's audit entry and, for a payment, what records it
    /// (``RiskAdmission``), which the challenge's own write stores with it.
    struct Decision: Sendable {
        let exemption: Exemption?
        let audit: PreparedAuditEvent
        var admission: RiskAdmission? = nil
    }

    /// Decides whether the challenge goes without SCA and, for a payment, what records it
    /// (authorised at once when exempt), for the challenge's write to store. Operations no
    /// exemption applies to are not decided here (nil).
    /// - Parameter contended: the decision's state changed under this many earlier decisions
    ///   for the same challenge; past ``maxContention`` no exemption is counted, so the
    ///   payment asks for SCA instead of deciding again.
    /// - Throws: `Problem.riskRefused` when a signal refuses the operation (audited first).
    func decide(_ request: Request, contended: Int = 0) async throws -> Decision? {
        guard request.operation == .payment || request.operation == .accountInfo else { return nil }
        let rules = settings.exemptionRules
        let monitoring = settings.monitoringRules
        let now = runtime.now()
        let userKey = RiskState.keyPrefix + request.user.id
        let storedText = try await store.riskStateText(key: userKey)
        let state = try RiskStateCodec.decode(storedText, as: RiskState.self)
        let transaction = request.transaction
        let amountMinor = transaction.flatMap { EURAmount.minorUnits(of: $0, eurPerUnit: eurPerUnit) }
        let payeeKey = transaction?.payee.digest
        let trusted = state.trusts(iban: transaction?.payee.iban)
        let clientAddress = RequestInfo.current?.clientAddress
        let operation = MonitoredOperation(
            isPayment: request.operation == .payment, amountMinor: amountMinor, payeeKey: payeeKey,
            iban: transaction?.payee.iban, payeeTrusted: trusted, deviceID: request.device?.id,
            deviceBoundAt: request.device?.createdAt, clientAddress: clientAddress, notMeReportedAt: state.notMeReportedAt)
        // Read from running aggregates the store keeps in each payment's own write (running
        // totals, last-seen payees and addresses, the amounts no later payment reaches): a few
        // index seeks whatever the number of the user's payments, exact for any window.
        let history = try await store.riskHistory(monitoring.historyQuery(userID: request.user.id, for: operation, now: now))
        let signals = monitoring.signals(for: operation, history: history, now: now)
        var details: [String: String] = [
            "signals": signals.isEmpty ? "none" : signals.map(\.rawValue).joined(separator: ","),
            "session": request.hasSession ? "yes" : "no",
        ]
        // Not the amount or the payee: the trail never copies a transaction (the challenge id
        // leads to it); the verdicts say which threshold it met or missed.
        if request.operation == .payment {
            details["paymentType"] = request.paymentType.rawValue
            details["recurring"] = request.recurring ? "yes" : "no"
        }
        if signals.contains(where: \.refuses) {
            details["rule"] = "none"
            await audit.record(
                .riskDecision, outcome: "refused", userID: request.user.id, deviceID: request.device?.id,
                challengeID: request.challengeID, operation: request.operation, details: details)
            throw Problem.riskRefused
        }

        var traMax: Int64?
        if rules.tra, request.operation == .payment, rules.anyEnabled {
            let tra = try await traAllowance(for: request.paymentType, now: now)
            traMax = tra.maxMinor
            details["traRatePercent"] = tra.ratePercent
            if let max = tra.maxMinor { details["traMaxEUR"] = EURAmount.text(max) }
        }
        let locked = request.user.lockout.isBlocked(at: now)
        let inputs = ExemptionInputs(
            operation: request.operation, hasSession: request.hasSession, signals: signals, amountMinor: amountMinor,
            payeeTrusted: trusted, recurringRequested: request.recurring,
            continuesSeries: transaction.map { state.continuesSeries(payee: $0.payee.digest, amount: $0.amount, currency: $0.currency) } ?? false,
            traMaxMinor: traMax, accountInfoSCAAt: state.accountInfoSCAAt,
            withheld: request.policyRaised
                ? "policy_raised" : locked ? "user_locked" : contended >= Self.maxContention ? "contended" : nil,
            now: now)
        let candidate = rules.candidate(for: inputs)
        var verdicts = candidate.verdictSummary

        var granted: Exemption?
        var admission: RiskAdmission?
        if request.operation == .payment, let transaction {
            // Of parallel payments, only as many as the counters allow go as low value: the
            // counters this one moves are written only while they are still those it read
            // (``RiskStateChange``), with the payment and its challenge. Every payment let
            // through without SCA is counted.
            let lowValue = rules.lowValue
            let amount = amountMinor ?? 0
            var counted = state
            let admitted = counted.admitPayment(candidate: candidate.exemption, amountMinor: amount, lowValue: lowValue)
            granted = admitted.granted
            admission = RiskAdmission(
                payment: RiskPaymentRecord(
                    challengeID: request.challengeID, userID: request.user.id, createdAt: now,
                    authorisedAt: granted == nil ? nil : now, amountMinor: amount, amount: transaction.amount,
                    currency: transaction.currency, type: request.paymentType, payeeKey: transaction.payee.digest,
                    iban: transaction.payee.iban, transactionDigest: transaction.digest, clientAddress: clientAddress,
                    deviceID: request.device?.id, exemption: granted, recurring: request.recurring),
                stateChange: counted == state
                    ? nil : RiskStateChange(key: userKey, readText: storedText, newText: try RiskStateCodec.encode(counted)))
            if candidate.exemption == .lowValue, granted == nil {
                verdicts = verdicts.replacingOccurrences(of: "low_value=applies", with: "low_value=limit_reached")
            }
            details["countersBefore"] = admitted.countersBefore.summary
            details["countersAfter"] = counted.lowValue.summary
            details["lowValueLimit"] = lowValue.map { $0.limit.rawValue } ?? "off"
        } else {
            granted = candidate.exemption
            // The trail's own date text, written without a formatter: this decision is taken on
            // every account access a partner makes under the exemption.
            if let last = state.accountInfoSCAAt { details["lastAccountInfoSCA"] = AuditEntry.rfc3339(last) }
        }
        details["rule"] = granted?.rawValue ?? "none"
        details["verdicts"] = verdicts.isEmpty ? "none" : verdicts
        return Decision(
            exemption: granted,
            audit: audit.prepare(
                .riskDecision, outcome: granted == nil ? "sca" : "exempt", userID: request.user.id,
                deviceID: request.device?.id, challengeID: request.challengeID, operation: request.operation, details: details),
            admission: admission)
    }

    /// How many times a payment's decision is made again when the state it read changed
    /// before its write (another payment of the user let through, or one authenticated);
    /// after that it asks for SCA, which writes no state. Only a storm of one user's payments
    /// gets that far.
    static let maxContention = 8

    // MARK: Fraud rates (art. 19–21)

    /// The largest amount TRA may exempt now for `type`, from the rolling 90-day fraud rate
    /// (art. 19) and the bands stopped by two quarters above their reference (art. 20).
    func traAllowance(for type: PaymentType, now: Date) async throws -> (maxMinor: Int64?, ratePercent: String) {
        var suspended = suspensions.bands(for: Quarter.containing(now).previous, now: now)
        if suspended == nil { suspended = try await evaluateSuspensions(now: now) }
        // The 90 days up to and including now (the query's end is exclusive; nothing is later).
        // Kept to the second, as art. 19 reads a rolling 90-day figure, not a calendar quarter's:
        // the store answers any `[from, to)` exactly from running aggregates (the volume as a
        // running total per type on each payment, two index seeks; fraud per UTC day, with the
        // parts of a day at the edges read from that day's reports). Buckets by quarter, or days
        // alone, would move the window's start to a boundary and change the rate near it; the
        // aggregates keep the figures the scan over every payment gave, at a cost that does not
        // grow with the installation's payments.
        let from = now.addingTimeInterval(-90 * 86_400)
        let through = now.addingTimeInterval(1)
        let volume = try await store.riskPaymentVolume(from: from, to: through)[type] ?? 0
        let fraud = try await store.fraudVolume(from: from, to: through)[type] ?? 0
        return (
            TRABand.maxExemptMinor(type: type, fraudMinor: fraud, volumeMinor: volume, suspended: suspended ?? []),
            TRABand.percentText(fraudMinor: fraud, volumeMinor: volume)
        )
    }

    /// The bands stopped as of the last two completed quarters; a change from what was stored
    /// is audited once (`risk.tra_suspended` / `risk.tra_resumed`).
    @discardableResult
    func evaluateSuspensions(now: Date) async throws -> Set<String> {
        let last = Quarter.containing(now).previous
        let suspended = try await suspendedBands(endingWith: last)
        let change = try await store.updateRiskState(key: ProviderRiskState.keyPrefix, as: ProviderRiskState.self) {
            $0.update(suspended: suspended)
        }
        suspensions.store(suspended, for: last, at: now)
        for band in change.stopped {
            await audit.record(
                .traSuspended, outcome: "suspended", details: ["band": band, "quarters": "\(last.previous),\(last)"])
        }
        for band in change.resumed {
            await audit.record(.traResumed, outcome: "resumed", details: ["band": band, "quarter": "\(last)"])
        }
        return suspended
    }

    /// Bands whose rate was above the reference in `quarter` and the quarter before.
    func suspendedBands(endingWith quarter: Quarter) async throws -> Set<String> {
        var above: [String: [Bool]] = [:]
        for period in [quarter.previous, quarter] {
            let volume = try await store.riskPaymentVolume(from: period.start, to: period.end)
            let fraud = try await store.fraudVolume(from: period.start, to: period.end)
            for type in PaymentType.allCases {
                for band in TRABand.bands(for: type) {
                    above[band.id, default: []].append(band.isExceeded(fraudMinor: fraud[type] ?? 0, volumeMinor: volume[type] ?? 0))
                }
            }
        }
        return Set(above.filter { TRABand.isSuspended(quartersAbove: $0.value) }.keys)
    }

    /// The fraud rates of `quarter` per type and band, and the exemptions in force now.
    package func report(quarter: Quarter) async throws -> RiskReport {
        let now = runtime.now()
        let volume = try await store.riskPaymentVolume(from: quarter.start, to: quarter.end)
        let fraud = try await store.fraudVolume(from: quarter.start, to: quarter.end)
        let suspendedThen = try await suspendedBands(endingWith: quarter)
        let suspendedNow = try await evaluateSuspensions(now: now)
        let types = PaymentType.allCases.map { type in
            let v = volume[type] ?? 0
            let f = fraud[type] ?? 0
            let bands = TRABand.bands(for: type).map {
                RiskReport.Band(
                    maxAmount: EURAmount.text($0.maxAmountMinor), referencePercent: $0.referencePercentText,
                    exceeded: $0.isExceeded(fraudMinor: f, volumeMinor: v), suspended: suspendedThen.contains($0.id))
            }
            return RiskReport.TypeRate(
                type: type, volume: EURAmount.text(v), fraud: EURAmount.text(f),
                ratePercent: TRABand.percentText(fraudMinor: f, volumeMinor: v), bands: bands,
                traSuspended: bands.contains(where: \.suspended))
        }
        let rules = settings.exemptionRules
        let exemptions = Exemption.allCases.map { exemption -> RiskReport.ExemptionStatus in
            switch exemption {
            case .lowValue:
                guard let low = rules.lowValue else { return .init(exemption: exemption, applied: false, reason: "exemptLowValue is off") }
                let limit = low.limit == .count ? "at most \(low.maxCount) payments" : "at most \(EURAmount.text(low.maxCumulativeMinor)) EUR"
                return .init(
                    exemption: exemption, applied: true,
                    reason: "payments up to \(EURAmount.text(low.maxAmountMinor)) EUR, \(limit) since the last SCA (art. 16)")
            case .trustedBeneficiary:
                return rules.trustedBeneficiaries
                    ? .init(exemption: exemption, applied: true, reason: "payments to payees the user trusted with SCA (art. 13)")
                    : .init(exemption: exemption, applied: false, reason: "exemptTrustedBeneficiaries is off")
            case .recurring:
                return rules.recurring
                    ? .init(exemption: exemption, applied: true, reason: "later payments of a series, same amount and payee (art. 14)")
                    : .init(exemption: exemption, applied: false, reason: "exemptRecurring is off")
            case .tra:
                guard rules.tra else { return .init(exemption: exemption, applied: false, reason: "exemptTRA is off") }
                let stopped = suspendedNow.sorted()
                let allStopped = PaymentType.allCases.allSatisfy { type in TRABand.bands(for: type).allSatisfy { suspendedNow.contains($0.id) } }
                return .init(
                    exemption: exemption, applied: !allStopped,
                    reason: stopped.isEmpty
                        ? "within the band the rolling 90-day fraud rate allows (art. 18)"
                        : "stopped for \(stopped.joined(separator: ", ")) after two quarters above the reference rate (art. 20)")
            case .accountInfo180d:
                return rules.accountInfoInterval != nil
                    ? .init(
                        exemption: exemption, applied: true,
                        reason: "account information within \(settings.accountInfoExemptionDays) days of an SCA for it (art. 10)")
                    : .init(exemption: exemption, applied: false, reason: "exemptAccountInfo is off")
            }
        }
        return RiskReport(quarter: quarter.description, types: types, exemptions: exemptions)
    }

    /// Records a payment found fraudulent (art. 19): in the quarter of the payment when `txn`
    /// names one this server authorised, else in the quarter it is reported. Then re-evaluates
    /// the TRA stops, so one crossing the line is audited at once.
    /// - Throws: `Problem.invalidRequest` (nothing written), `Problem.fraudReportDuplicate`.
    package func reportFraud(_ request: FraudReportRequest) async throws -> FraudReportResponse {
        guard let currency = Currency(code: request.currency), currency.minorUnits(of: request.amount) != nil else {
            throw Problem.invalidRequest("amount and currency must be a supported currency and an amount with its decimals")
        }
        if let txn = request.txn, !(txn.utf8.count == 43 && Base64URL.decode(txn)?.count == 32) {
            throw Problem.invalidRequest("txn must be a transaction digest (43 base64url characters)")
        }
        let transaction = Transaction(amount: request.amount, currency: currency.code, payee: .init(name: "-"))
        guard let amountMinor = EURAmount.minorUnits(of: transaction, eurPerUnit: eurPerUnit) else {
            throw Problem.invalidRequest("no exchange rate is configured for \(currency.code)")
        }
        let now = runtime.now()
        let payment = try await request.txn.asyncFlatMap { try await store.riskPayment(transactionDigest: $0) }
        let occurred = payment?.authorisedAt ?? now
        let report = FraudReportRecord(
            id: runtime.makeID(prefix: "fr"), transactionDigest: request.txn, amountMinor: amountMinor,
            type: payment?.type ?? request.type, occurredAt: occurred, reportedAt: now)
        do {
            try await store.addFraudReport(report)
        } catch StoreError.conflict {
            throw Problem.fraudReportDuplicate
        }
        let quarter = Quarter.containing(occurred)
        await audit.record(
            .fraudReported, userID: payment?.userID, challengeID: payment?.challengeID,
            details: [
                "reportId": report.id, "quarter": quarter.description, "amountEUR": EURAmount.text(amountMinor),
                "paymentType": report.type.rawValue, "matchedPayment": payment == nil ? "no" : "yes",
            ])
        try await evaluateSuspensions(now: now)
        return FraudReportResponse(reportId: report.id, quarter: quarter.description, matchedPayment: payment != nil)
    }
}
