import Foundation
import SCACore
@testable import SCAEngine
import SCAStorage
import Testing

/// A payment's decision is written only while the risk state it read is unchanged; one that
/// lost that race eight times asks for SCA instead of deciding again. Decided on a real server's
/// risk engine and store, without a race to force: the count of lost races is what the
/// challenge service passes.
@Suite("Risk decisions under contention")
struct RiskContentionTests {
    @Test("a low-value payment decided after eight lost races asks for SCA, moves no counter and says why")
    func contendedDecisionAsksForSCA() async throws {
        try await TestServer { $0.risk.exemptLowValue = true }.run { api in
            let signedIn = try await api.signIn("contended@example.com")
            let user = try #require(try await api.services.store.user(id: signedIn.id))
            let request = RiskService.Request(
                challengeID: "ch_contended", operation: .payment, transaction: ExemptionTests.eur("10.00"),
                paymentType: .creditTransfer, recurring: false, user: user, device: nil, hasSession: true, policyRaised: false)
            let risk = api.services.engine.risk

            let fresh = try #require(try await risk.decide(request, contended: RiskService.maxContention - 1))
            #expect(fresh.exemption == .lowValue)
            #expect(fresh.admission?.stateChange != nil, "a payment let through moves the counters")

            let contended = try #require(try await risk.decide(request, contended: RiskService.maxContention))
            #expect(contended.exemption == nil)
            #expect(contended.admission?.payment.authorisedAt == nil)
            #expect(contended.admission?.stateChange == nil, "asking for SCA writes no state, so it cannot lose again")
            #expect(contended.audit.draft.outcome == "sca")
            #expect(contended.audit.draft.details["verdicts"]?.contains("low_value=contended") == true)
        }
    }
}
