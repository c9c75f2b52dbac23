import Foundation
import SCACore
import SCAStorage
import Testing

/// The risk engine's decisions as pure code: counters, bands, quarters, signals and
/// exemption verdicts, at their edges.
@Suite("Risk decisions (pure)")
struct RiskDecisionTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("low value by count: the 5th payment since the last SCA goes, the 6th does not; SCA resets")
    func lowValueCount() {
        let rules = LowValueRules(limit: .count)
        var state = RiskState()
        for _ in 1...5 { #expect(state.admitPayment(candidate: .lowValue, amountMinor: 1_000, lowValue: rules).granted == .lowValue) }
        #expect(state.admitPayment(candidate: .lowValue, amountMinor: 1_000, lowValue: rules).granted == nil)
        #expect(state.lowValue == LowValueCounters(count: 5, sumMinor: 5_000))
        state.paymentAuthenticated(seriesPayee: nil, amount: "10.00", currency: "EUR", at: now)
        #expect(state.admitPayment(candidate: .lowValue, amountMinor: 1_000, lowValue: rules).granted == .lowValue)
    }

    @Test("low value: 30.00 EUR goes, 30.01 does not; the cumulative limit holds at exactly 100.00")
    func lowValueAmounts() {
        let cumulative = LowValueRules(limit: .cumulative)
        #expect(LowValueCounters().admits(3_000, rules: cumulative))
        #expect(!LowValueCounters().admits(3_001, rules: cumulative))
        #expect(LowValueCounters(count: 3, sumMinor: 9_000).admits(1_000, rules: cumulative))
        #expect(!LowValueCounters(count: 3, sumMinor: 9_000).admits(1_001, rules: cumulative))
        // The count limit does not care about the sum, nor the cumulative one about the count.
        #expect(LowValueCounters(count: 4, sumMinor: 9_999).admits(3_000, rules: LowValueRules(limit: .count)))
        #expect(LowValueCounters(count: 50, sumMinor: 0).admits(3_000, rules: cumulative))
    }

    @Test("every exemption counts in the low-value counters; no candidate changes nothing")
    func otherExemptionsCount() {
        var state = RiskState()
        #expect(state.admitPayment(candidate: .trustedBeneficiary, amountMinor: 50_000, lowValue: nil).granted == .trustedBeneficiary)
        #expect(state.admitPayment(candidate: nil, amountMinor: 100, lowValue: nil).granted == nil)
        #expect(state.lowValue == LowValueCounters(count: 1, sumMinor: 50_000))
    }

    @Test("recurring: same amount and payee continue the series; one cent or another payee does not")
    func recurringSeries() {
        var state = RiskState()
        state.paymentAuthenticated(seriesPayee: "payee", amount: "50.00", currency: "EUR", at: now)
        #expect(state.continuesSeries(payee: "payee", amount: "50.00", currency: "EUR"))
        #expect(!state.continuesSeries(payee: "payee", amount: "50.01", currency: "EUR"))
        #expect(!state.continuesSeries(payee: "other", amount: "50.00", currency: "EUR"))
        #expect(!state.continuesSeries(payee: "payee", amount: "50.00", currency: "CHF"))
    }

    @Test("quarters: parsing, containing, bounds and neighbours in UTC")
    func quarters() throws {
        #expect(Quarter("2026Q4")?.description == "2026Q4")
        #expect(Quarter("2026q1") == Quarter(year: 2026, number: 1))
        for bad in ["2026Q5", "2026Q0", "26Q1", "2026-Q1", "", "2026Q", "２０２６Q1", "1970Q1", "1970Q4", "9999Q4", "0000Q1"] {
            #expect(Quarter(bad) == nil, "\(bad)")
        }
        // Read from input, a quarter has both neighbours.
        for edge in ["1971Q1", "9998Q4"] {
            let quarter = try #require(Quarter(edge))
            #expect(quarter.previous < quarter && quarter < quarter.next)
        }
        let q4 = try #require(Quarter("2026Q4"))
        #expect(q4.next.description == "2027Q1")
        #expect(q4.next.previous == q4)
        #expect(Quarter("2026Q1")?.previous.description == "2025Q4")
        #expect(q4.start == Date(timeIntervalSince1970: 1_790_812_800))  // 2026-10-01T00:00:00Z
        #expect(Quarter.containing(q4.start) == q4)
        #expect(Quarter.containing(q4.end.addingTimeInterval(-0.001)) == q4)
        #expect(Quarter.containing(q4.end) == q4.next)
    }

    @Test("TRA bands at their edges: a rate equal to the reference is within it, one cent more is not")
    func traEdges() {
        // Volume 100,000.00 EUR: 0.005 % is 5.00 EUR, 0.01 % 10.00, 0.015 % 15.00.
        let volume: Int64 = 10_000_000
        let none = Set<String>()
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 0, volumeMinor: volume, suspended: none) == 50_000)
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 500, volumeMinor: volume, suspended: none) == 50_000)
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 501, volumeMinor: volume, suspended: none) == 25_000)
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 1_000, volumeMinor: volume, suspended: none) == 25_000)
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 1_001, volumeMinor: volume, suspended: none) == 10_000)
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 1_500, volumeMinor: volume, suspended: none) == 10_000)
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 1_501, volumeMinor: volume, suspended: none) == nil)
        // Card-not-present: 0.01 / 0.06 / 0.13 %.
        #expect(TRABand.maxExemptMinor(type: .card, fraudMinor: 1_000, volumeMinor: volume, suspended: none) == 50_000)
        #expect(TRABand.maxExemptMinor(type: .card, fraudMinor: 6_000, volumeMinor: volume, suspended: none) == 25_000)
        #expect(TRABand.maxExemptMinor(type: .card, fraudMinor: 13_000, volumeMinor: volume, suspended: none) == 10_000)
        #expect(TRABand.maxExemptMinor(type: .card, fraudMinor: 13_001, volumeMinor: volume, suspended: none) == nil)
        // A stopped band is skipped; a smaller one still applies.
        #expect(TRABand.maxExemptMinor(type: .creditTransfer, fraudMinor: 0, volumeMinor: volume, suspended: ["credit_transfer:500"]) == 25_000)
        #expect(TRABand.percentText(fraudMinor: 1_500, volumeMinor: volume) == "0.015000")
        // Six decimals always, rounded half up, whatever the size.
        #expect(TRABand.percentText(fraudMinor: 0, volumeMinor: volume) == "0.000000")
        #expect(TRABand.percentText(fraudMinor: 5, volumeMinor: 0) == "0.000000")
        #expect(TRABand.percentText(fraudMinor: volume, volumeMinor: volume) == "100.000000")
        #expect(TRABand.percentText(fraudMinor: 1, volumeMinor: 3) == "33.333333")
        #expect(TRABand.percentText(fraudMinor: 2, volumeMinor: 3) == "66.666667")
        #expect(TRABand.percentText(fraudMinor: 5, volumeMinor: 1_000_000_000) == "0.000001")
        #expect(TRABand.percentText(fraudMinor: 4, volumeMinor: 1_000_000_000) == "0.000000")
        #expect(TRABand.percentText(fraudMinor: 3 * volume, volumeMinor: volume) == "300.000000")
        #expect(TRABand.bands(for: .creditTransfer)[0].referencePercentText == "0.015")
    }

    @Test("art. 20/21: two consecutive quarters above stop TRA; one at or below resumes it")
    func traSuspension() {
        #expect(!TRABand.isSuspended(quartersAbove: []))
        #expect(!TRABand.isSuspended(quartersAbove: [true]))
        #expect(TRABand.isSuspended(quartersAbove: [true, true]))
        #expect(!TRABand.isSuspended(quartersAbove: [true, false, true]))
        #expect(TRABand.isSuspended(quartersAbove: [true, true, true]))
        #expect(!TRABand.isSuspended(quartersAbove: [true, true, false]))
        var provider = ProviderRiskState()
        #expect(provider.update(suspended: ["a", "b"]) == (["a", "b"], []))
        #expect(provider.update(suspended: ["b"]) == ([], ["a"]))
        #expect(provider.update(suspended: ["b"]) == ([], []))
    }

    @Test("monitoring: each signal at its threshold; a deny-listed payee or device refuses")
    func signals() {
        let rules = MonitoringRules(
            denyList: ["DE89370400440532013000", "dev_bad"], maxPaymentsPerHour: 3, maxAmountPerDayMinor: 10_000,
            unusualAmountFactor: 10, newDeviceAge: 3_600)
        let history = [
            RiskPaymentRecord(
                challengeID: "c1", userID: "u", createdAt: now - 600, authorisedAt: now - 600, amountMinor: 1_000, amount: "10.00",
                currency: "EUR", type: .creditTransfer, payeeKey: "known", transactionDigest: "t1", clientAddress: "192.0.2.1"),
            RiskPaymentRecord(
                challengeID: "c2", userID: "u", createdAt: now - 7_200, authorisedAt: now - 7_200, amountMinor: 1_000, amount: "10.00",
                currency: "EUR", type: .creditTransfer, payeeKey: "known", transactionDigest: "t2", clientAddress: "192.0.2.1"),
        ]
        let quiet = MonitoredOperation(isPayment: true, amountMinor: 1_000, payeeKey: "known", clientAddress: "192.0.2.1")
        #expect(rules.signals(for: quiet, history: history, now: now) == [])
        var operation = quiet
        operation.iban = "DE89370400440532013000"
        #expect(rules.signals(for: operation, history: history, now: now) == [.denyListedPayee])
        #expect(RiskSignal.denyListedPayee.refuses && !RiskSignal.newPayee.refuses)
        operation = quiet
        operation.payeeKey = "new"
        #expect(rules.signals(for: operation, history: history, now: now) == [.newPayee])
        operation.payeeTrusted = true
        #expect(rules.signals(for: operation, history: history, now: now) == [])
        operation = quiet
        operation.amountMinor = 10_000  // exactly 10 × the largest: not unusual; the day's total is over
        #expect(rules.signals(for: operation, history: history, now: now) == [.velocityAmount])
        operation.amountMinor = 7_000
        #expect(rules.signals(for: operation, history: history, now: now) == [])
        operation = quiet
        operation.clientAddress = "198.51.100.7"
        #expect(rules.signals(for: operation, history: history, now: now) == [.newAddress])
        #expect(rules.signals(for: operation, history: [], now: now) == [.newPayee])  // no history: no basis for the address
        operation = quiet
        operation.deviceID = "dev_new"
        operation.deviceBoundAt = now - 3_599
        #expect(rules.signals(for: operation, history: history, now: now) == [.newDevice])
        operation.deviceBoundAt = now - 3_600
        #expect(rules.signals(for: operation, history: history, now: now) == [])
        operation.deviceID = "dev_bad"
        #expect(rules.signals(for: operation, history: history, now: now) == [.denyListedDevice])
        let third = RiskPaymentRecord(
            challengeID: "c3", userID: "u", createdAt: now - 60, authorisedAt: now - 60, amountMinor: 100, amount: "1.00",
            currency: "EUR", type: .creditTransfer, payeeKey: "known", transactionDigest: "t3", clientAddress: "192.0.2.1")
        var fourth = third
        fourth.challengeID = "c4"
        // One in the last hour plus this one is 2; with two more it is 3 (allowed); three more make 4.
        #expect(rules.signals(for: quiet, history: history + [third], now: now) == [])
        #expect(rules.signals(for: quiet, history: history + [third, fourth], now: now) == [.velocityCount])
        operation = quiet
        operation.amountMinor = nil
        #expect(rules.signals(for: operation, history: history, now: now) == [.amountUnconverted])
    }

    @Test("exemption verdicts: order, session, signals and the 180 days of art. 10 to the minute")
    func verdicts() {
        let all = ExemptionRules(
            lowValue: LowValueRules(limit: .count), trustedBeneficiaries: true, recurring: true, tra: true,
            accountInfoInterval: 180 * 86_400)
        let payment = ExemptionInputs(
            operation: .payment, hasSession: true, signals: [], amountMinor: 2_000, payeeTrusted: true,
            recurringRequested: true, continuesSeries: true, traMaxMinor: 50_000, now: now)
        #expect(all.candidate(for: payment).exemption == .trustedBeneficiary)
        var inputs = payment
        inputs.payeeTrusted = false
        #expect(all.candidate(for: inputs).exemption == .recurring)
        inputs.continuesSeries = false
        #expect(all.candidate(for: inputs).exemption == .tra)
        inputs.traMaxMinor = nil
        #expect(all.candidate(for: inputs).exemption == .lowValue)
        #expect(all.candidate(for: inputs).verdictSummary
            == "trusted_beneficiary=not_trusted,recurring=series_changed,tra=band_unavailable,low_value=applies")
        inputs.amountMinor = 3_001
        #expect(all.candidate(for: inputs).exemption == nil)
        // A raised signal takes every exemption away; a new payee only TRA.
        inputs = payment
        inputs.signals = [.velocityCount]
        #expect(all.candidate(for: inputs).exemption == nil)
        #expect(all.candidate(for: inputs).verdicts.allSatisfy { $0.1 == "signal:velocity_count" })
        inputs.signals = [.newPayee]
        inputs.payeeTrusted = false
        inputs.continuesSeries = false
        #expect(all.candidate(for: inputs).verdictSummary
            == "trusted_beneficiary=not_trusted,recurring=series_changed,tra=signal:new_payee,low_value=applies")
        inputs = payment
        inputs.hasSession = false
        #expect(all.candidate(for: inputs).exemption == nil)
        inputs = payment
        inputs.withheld = "policy_raised"
        #expect(all.candidate(for: inputs).verdicts.allSatisfy { $0.1 == "policy_raised" })
        #expect(ExemptionRules().candidate(for: payment).verdicts.allSatisfy { $0.1 == "disabled" })

        let last = now - 180 * 86_400
        var info = ExemptionInputs(operation: .accountInfo, hasSession: true, signals: [], accountInfoSCAAt: nil, now: now)
        #expect(all.candidate(for: info).verdictSummary == "account_info_180d=first_access")
        info.accountInfoSCAAt = last + 60
        #expect(all.candidate(for: info).exemption == .accountInfo180d)
        info.accountInfoSCAAt = last
        #expect(all.candidate(for: info).exemption == .accountInfo180d)
        info.accountInfoSCAAt = last - 60
        #expect(all.candidate(for: info).verdictSummary == "account_info_180d=expired")
        #expect(all.candidate(for: ExemptionInputs(operation: .login, hasSession: true, signals: [], now: now)).verdicts.isEmpty)
    }

    @Test("EUR amounts: exact cents, conversions rounded up, texts")
    func eurAmounts() {
        let payee = Transaction.Payee(name: "x")
        #expect(EURAmount.minorUnits(of: Transaction(amount: "30.01", currency: "EUR", payee: payee), eurPerUnit: [:]) == 3_001)
        let rates = ["JPY": Decimal(string: "0.00611")!]
        #expect(EURAmount.minorUnits(of: Transaction(amount: "1000", currency: "JPY", payee: payee), eurPerUnit: rates) == 611)
        #expect(EURAmount.minorUnits(of: Transaction(amount: "1001", currency: "JPY", payee: payee), eurPerUnit: rates) == 612)
        #expect(EURAmount.minorUnits(of: Transaction(amount: "10.00", currency: "CHF", payee: payee), eurPerUnit: [:]) == nil)
        #expect(EURAmount.minorUnits(of: "30") == 3_000)
        #expect(EURAmount.minorUnits(of: "30.5") == 3_050)
        #expect(EURAmount.minorUnits(of: "30.001") == nil)
        #expect(EURAmount.minorUnits(of: "-1") == nil)
        #expect(EURAmount.text(3_001) == "30.01")
        #expect(EURAmount.text(5) == "0.05")
    }
}
