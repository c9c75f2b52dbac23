import Foundation
import SCAEngine
import Testing

@Suite("Audit stream: the lease and the cursor")
struct AuditStreamStateTests {
    let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    @Test("one instance holds the lease until it runs out; it renews only after half; the cursor moves only for the holder, from where it was")
    func leaseAndCursor() {
        var state = AuditStreamState()
        let first = state.claim(by: "a", at: t0, until: t0 + 30)
        #expect(first == 0)
        let byOther = state.claim(by: "b", at: t0 + 29, until: t0 + 59)
        #expect(byOther == nil)
        // Still more than half left: no change, so no write.
        let before = state
        let early = state.claim(by: "a", at: t0 + 10, until: t0 + 40)
        #expect(early == 0)
        #expect(state == before)
        let renewed = state.claim(by: "a", at: t0 + 20, until: t0 + 50)
        #expect(renewed == 0)
        #expect(state.leaseUntil == t0 + 50)

        let advancedByOther = state.advance(from: 0, to: 5, by: "b")
        #expect(!advancedByOther)
        let advanced = state.advance(from: 0, to: 5, by: "a")
        #expect(advanced)
        let fromStale = state.advance(from: 0, to: 9, by: "a")
        #expect(!fromStale, "from a stale cursor")
        let inPlace = state.advance(from: 5, to: 5, by: "a")
        #expect(!inPlace, "never backwards or in place")
        #expect(state.sent == 5)

        // A lease that ran out passes on, with the cursor.
        let passedOn = state.claim(by: "b", at: t0 + 51, until: t0 + 81)
        #expect(passedOn == 5)
        #expect(state.holder == "b")
        let byFormerHolder = state.advance(from: 5, to: 7, by: "a")
        #expect(!byFormerHolder)
    }
}
