import Synchronization

/// The connections a server has open, shared by every connection's ``ConnectionLimitHandler``:
/// at most ``limit`` in all and at most ``limitPerAddress`` from one client address, so one
/// client cannot take every place and shut everyone else out.
package final class ConnectionCounter: Sendable {
    let limit: Int
    let limitPerAddress: Int

    package init(limit: Int, limitPerAddress: Int = .max) {
        self.limit = limit
        self.limitPerAddress = limitPerAddress
    }

    private struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }
    private let counts = Mutex(Counts())

    /// Takes a place for a connection from `address` (nil: counted in the total only); false
    /// when `limit` connections are open already, or `limitPerAddress` from that address.
    func acquire(address: String? = nil) -> Bool {
        counts.withLock { counts in
            guard counts.total < limit else { return false }
            if let address {
                guard counts.byAddress[address, default: 0] < limitPerAddress else { return false }
                counts.byAddress[address, default: 0] += 1
            }
            counts.total += 1
            return true
        }
    }

    func release(address: String? = nil) {
        counts.withLock { counts in
            counts.total -= 1
            if let address {
                let left = counts.byAddress[address, default: 1] - 1
                counts.byAddress[address] = left > 0 ? left : nil
            }
        }
    }

    var current: Int { counts.withLock { $0.total } }

    /// The places `address` holds.
    func current(from address: String) -> Int { counts.withLock { $0.byAddress[address, default: 0] } }
}
