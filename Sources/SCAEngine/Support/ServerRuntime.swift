import Foundation
import SCACore
import SCAStorage

/// Time and randomness, injected so tests can pin them. Ids are drawn from `random`. Also where
/// the server's spans go: one process may run several servers, each with its own exporter.
package struct ServerRuntime: Sendable {
    package var now: @Sendable () -> Date
    package var random: any RandomSource
    /// The spans of requests, outbound calls and password hashes; `.off` records none.
    package var tracing: TraceRecorder

    package init(
        now: @escaping @Sendable () -> Date = { Date() }, random: any RandomSource = SystemRandom(), tracing: TraceRecorder = .off
    ) {
        self.now = now
        self.random = random
        self.tracing = tracing
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
