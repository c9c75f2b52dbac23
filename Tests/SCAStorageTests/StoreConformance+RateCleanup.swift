import Foundation
import SCAStorage
import Testing

extension StoreConformance {
    /// Leaves 100 expired uses behind, then checks that each consume deletes at most
    /// `RateBudget.expiredUsesToDelete` of them and that later consumes take the rest.
    /// - Parameter rows: counts the backend's `rate_events` rows.
    static func checkBoundedRateCleanup(_ store: any SCAStore, rows: () async throws -> Int?) async throws {
        let spent = (0..<100).map { RateBudget(key: "test.spent.60:\($0)", scope: "spent", limit: 1, window: 60) }
        #expect(try await store.consumeRateBudgets(spent, now: t0) == .granted)
        #expect(try await rows() == 100)

        let batch = RateBudget.expiredUsesToDelete(consuming: 1)
        #expect(batch < 100, "the check needs more expired uses than one batch")
        let fresh = { (name: String) in RateBudget(key: "test.fresh.60:\(name)", scope: "fresh", limit: 1, window: 60) }
        // Every spent use has left its window: each has room again, whatever is left in the table.
        #expect(try await store.consumeRateBudgets([fresh("a")], now: t0 + 61) == .granted)
        #expect(try await rows() == 100 - batch + 1, "one batch deleted, one use added")
        #expect(try await store.consumeRateBudgets([fresh("b")], now: t0 + 62) == .granted)
        #expect(try await rows() == 2, "the rest deleted; the two fresh uses are live")
        #expect(try await store.consumeRateBudgets([spent[99]], now: t0 + 63) == .granted)
    }
}
