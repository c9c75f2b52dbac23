import Foundation
import SCACore

/// Time and randomness, injected so tests can pin them. Ids are drawn from `random`.
package struct ServerRuntime: Sendable {
    package var now: @Sendable () -> Date
    package var random: any RandomSource

    package init(now: @escaping @Sendable () -> Date = { Date() }, random: any RandomSource = SystemRandom()) {
        self.now = now
        self.random = random
    }

    /// A fresh identifier such as `ch_3kT…`: a type prefix and 16 random bytes in base64url.
    package func makeID(prefix: String) -> String {
        "\(prefix)_\(Base64URL.encode(random.bytes(16)))"
    }

    /// A fresh identifier that sorts by creation time (``TimeOrderedID``), for the rows made at
    /// a high rate: challenges and sessions. Rows that live long and whose creation time is
    /// their owner's business (users, devices) keep ``makeID(prefix:)``.
    func makeTimeOrderedID(prefix: String) -> String {
        TimeOrderedID.make(prefix: prefix, at: now(), random: random)
    }

    /// A fresh opaque secret (refresh tokens): 32 random bytes in base64url.
    package func makeSecret() -> String {
        Base64URL.encode(random.bytes(32))
    }
}
