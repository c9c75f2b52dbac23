import Foundation
import SCACore
import SCAStorage
import Testing

// What the console's risk and audit pages read (v11-console-reports), checked on every backend:
// the audit trail filtered and paged both ways, and the exemptions granted per day.
extension StoreConformance {
    func auditEntriesAreFilteredAndPaged() async throws {
        // Ten entries a minute apart: users u1/u2 in turn, every third a refused proof.
        for index in 0..<10 {
            _ = try await store.appendAuditEntry(
                AuditEntryDraft(
                    time: t0 + Double(index * 60), event: index % 3 == 0 ? "proof.rejected" : "challenge.created",
                    actor: "client", userID: index % 2 == 0 ? "u1" : "u2", outcome: "success",
                    details: ["index": String(index)]))
        }
        func indices(_ entries: [AuditEntry]) -> [String] { entries.compactMap { $0.draft.details["index"] } }

        // No condition: the whole trail, either way.
        #expect(indices(try await store.auditEntries(matching: AuditFilter(), .after(0), limit: 3)) == ["0", "1", "2"])
        #expect(indices(try await store.auditEntries(matching: AuditFilter(), .before(nil), limit: 3)) == ["9", "8", "7"])
        // Each condition, and all together.
        #expect(indices(try await store.auditEntries(matching: AuditFilter(userID: "u1"), .before(nil), limit: 10)) == ["8", "6", "4", "2", "0"])
        #expect(indices(try await store.auditEntries(matching: AuditFilter(event: "proof.rejected"), .after(0), limit: 10)) == ["0", "3", "6", "9"])
        let window = AuditFilter(from: t0 + 120, to: t0 + 300)
        #expect(indices(try await store.auditEntries(matching: window, .after(0), limit: 10)) == ["2", "3", "4"])
        let all = AuditFilter(userID: "u2", event: "proof.rejected", from: t0 + 60, to: t0 + 600)
        #expect(indices(try await store.auditEntries(matching: all, .after(0), limit: 10)) == ["3", "9"])
        // Pages go on from the last sequence number seen, in both directions.
        let newest = try await store.auditEntries(matching: AuditFilter(userID: "u1"), .before(nil), limit: 2)
        let older = try await store.auditEntries(matching: AuditFilter(userID: "u1"), .before(newest.last?.sequence), limit: 2)
        #expect(indices(older) == ["4", "2"])
        let first = try await store.auditEntries(matching: AuditFilter(event: "challenge.created"), .after(0), limit: 2)
        let next = try await store.auditEntries(matching: AuditFilter(event: "challenge.created"), .after(first.last?.sequence ?? 0), limit: 2)
        #expect(indices(next) == ["4", "5"])
        // Nothing matches: nothing, not an error; entries come back whole, their chain intact.
        #expect(try await store.auditEntries(matching: AuditFilter(userID: "nobody"), .before(nil), limit: 10).isEmpty)
        let whole = try await store.auditEntries(matching: AuditFilter(), .after(0), limit: 100)
        #expect(whole == (try await store.auditEntries(after: 0, limit: 100)))
        #expect(AuditChainVerifier.verify(whole) == nil)
    }

    func exemptionsGrantedAreCountedPerDay() async throws {
        let day = RiskDay.number(containing: t0.unixSeconds)
        let midnight = Date(timeIntervalSince1970: Double(day + 1) * RiskDay.seconds)
        let payments = [
            makePayment("c1", at: midnight - 3_600, exemption: .lowValue),
            makePayment("c2", at: midnight - 60, exemption: .lowValue),
            makePayment("c3", at: midnight - 30, exemption: .tra),
            makePayment("c4", at: midnight, exemption: .lowValue),
            makePayment("c5", at: midnight + 60, type: .card, exemption: .trustedBeneficiary),
            // With SCA, or never authorised: not exempted.
            makePayment("c6", at: midnight + 120),
            makePayment("c7", at: midnight + 180, authorised: false, exemption: .tra),
        ]
        for payment in payments { try await store.recordRiskPayment(payment) }

        let counted = try await store.exemptionsGranted(from: midnight - 86_400, to: midnight + 86_400)
        #expect(
            counted == [
                ExemptionTally(day: day, exemption: .lowValue, count: 2), ExemptionTally(day: day, exemption: .tra, count: 1),
                ExemptionTally(day: day + 1, exemption: .lowValue, count: 1),
                ExemptionTally(day: day + 1, exemption: .trustedBeneficiary, count: 1),
            ])
        // The range is `[from, to)`.
        #expect(try await store.exemptionsGranted(from: midnight - 60, to: midnight) == [ExemptionTally(day: day, exemption: .lowValue, count: 1), ExemptionTally(day: day, exemption: .tra, count: 1)])
        #expect(try await store.exemptionsGranted(from: midnight + 3_600, to: midnight + 7_200).isEmpty)
    }
}
