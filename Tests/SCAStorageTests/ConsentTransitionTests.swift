import Foundation
import SCACore
import SCAStorage
import Testing

@Suite("Consent transitions (pure)")
struct ConsentTransitionTests {
    static let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    func consent() -> ConsentRecord {
        ConsentRecord(
            id: "cst_1", clientID: "cli_1", userID: "u1", operation: .settingsChange, summary: "x",
            redirectURL: "https://a.example/done", createdAt: Self.t0, expiresAt: Self.t0 + 900)
    }

    @Test("an open consent past its time can only expire; a move stamps the time")
    func expiry() {
        var open = consent()
        let step1 = open.move(to: .started, now: Self.t0 + 1)
        #expect(step1)
        #expect(open.updatedAt == Self.t0 + 1)
        var late = open
        let step2 = late.move(to: .accepted, now: Self.t0 + 900)
        #expect(!step2)
        #expect(late.status == .started)
        let step3 = late.expireIfDue(now: Self.t0 + 900)
        #expect(step3)
        #expect(late.status == .expired)
        let step4 = late.expireIfDue(now: Self.t0 + 1_000)
        #expect(!step4)
        let step5 = open.move(to: .accepted, now: Self.t0 + 899)
        #expect(step5)
        let step6 = open.expireIfDue(now: Self.t0 + 2_000)
        #expect(!step6)  // accepted stays accepted
    }
}
