import Foundation
import SCACore
import SCAEngine
import Testing

/// The stopped TRA bands answer from memory for a minute of the server's clock, and only for
/// the quarter they were worked out for.
@Suite("TRA suspension cache")
struct TRASuspensionCacheTests {
    @Test("an entry answers for its quarter within a minute; not after, not before it was made, not for another quarter")
    func answersWithinItsMinute() {
        let cache = TRASuspensionCache()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let quarter = Quarter.containing(now).previous
        #expect(cache.bands(for: quarter, now: now) == nil)
        cache.store(["credit_transfer-500"], for: quarter, at: now)
        #expect(cache.bands(for: quarter, now: now) == ["credit_transfer-500"])
        #expect(cache.bands(for: quarter, now: now.addingTimeInterval(59.9)) == ["credit_transfer-500"])
        #expect(cache.bands(for: quarter, now: now.addingTimeInterval(TRASuspensionCache.maxAge)) == nil)
        #expect(cache.bands(for: quarter, now: now.addingTimeInterval(-1)) == nil)
        #expect(cache.bands(for: quarter.previous, now: now) == nil)
        // Stored again (a fraud report, or the next evaluation): the new bands, from then.
        cache.store([], for: quarter, at: now.addingTimeInterval(30))
        #expect(cache.bands(for: quarter, now: now.addingTimeInterval(80)) == [])
    }
}
