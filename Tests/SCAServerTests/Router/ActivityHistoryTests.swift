import Foundation
import SCAEngine
import Synchronization
import Testing

/// The live overview's hour of per-minute counts, on an injected clock: minutes fill their own
/// slots, the window slides, and a slot reused after an hour starts from nothing.
@Suite("Activity history")
struct ActivityHistoryTests {
    final class Clock: Sendable {
        let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func now() -> Date { time.withLock { $0 } }
        func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    @Test("each minute counts in its own slot, oldest first, the current minute last")
    func minutes() {
        let clock = Clock()
        let history = ActivityHistory(now: { clock.now() })
        history.record(.lockouts)
        clock.advance(by: 60)
        history.record(.lockouts)
        history.record(.lockouts)
        history.record(.codesSent)
        let hour = history.lastHour()
        #expect(hour.counts[.lockouts]?.suffix(2) == [1, 2])
        #expect(hour.counts[.lockouts]?.reduce(0, +) == 3)
        #expect(hour.counts[.codesSent]?.last == 1)
        #expect(hour.counts[.failedProofs] == Array(repeating: 0, count: 60))
        #expect(hour.counts.count == ActivityHistory.Series.allCases.count)
        let current = Date(timeIntervalSince1970: (clock.now().timeIntervalSince1970 / 60).rounded(.down) * 60)
        #expect(hour.firstMinute == current.addingTimeInterval(-59 * 60))
    }

    @Test("after an hour a minute leaves the window, and its slot reused starts from nothing")
    func slides() {
        let clock = Clock()
        let history = ActivityHistory(now: { clock.now() })
        for _ in 0..<5 { history.record(.failedProofs) }
        clock.advance(by: 59 * 60)
        #expect(history.lastHour().counts[.failedProofs]?.first == 5, "59 minutes later it is the oldest")
        clock.advance(by: 60)
        #expect(history.lastHour().counts[.failedProofs]?.reduce(0, +) == 0, "an hour later it is gone")
        history.record(.failedProofs)
        #expect(history.lastHour().counts[.failedProofs]?.reduce(0, +) == 1, "the same slot, counted afresh")
    }
}
