import Synchronization

/// The connections a server has open, shared by every connection's ``ConnectionLimitHandler``.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let openCount = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place; false when `limit` connections are open already.
    func acquire() -> Bool {
        openCount.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() {
        openCount.withLock { $0 -= 1 }
    }

    var current: Int { openCount.withLock { $0 } }
}
