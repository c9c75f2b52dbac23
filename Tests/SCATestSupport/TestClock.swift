import Foundation
import Synchronization

/// A clock the test moves by hand, shared by the server and the SDK, so expiry and TOTP steps
/// are tested without sleeping.
///
/// One copy for every test target (package access), so the server's and the SDK's tests move
/// time the same way.
package final class TestClock: Sendable {
    private let current: Mutex<Date>

    /// A clock standing at `start`, a fixed instant so runs are repeatable.
    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The instant the clock stands at.
    package func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
