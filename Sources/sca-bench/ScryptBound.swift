import Dispatch
import Foundation
import SCACore
import Synchronization

/// The most scrypt verifications this machine does per second with every core verifying and
/// nothing else: the bound of a manual login, which costs one. Measured by `--scrypt-bound`
/// right before or after a manual-login run, so that the login's share of the bound compares
/// two figures of the same window on a shared machine.
struct ScryptBound: Sendable {
    /// The scrypt parameters measured (the server's).
    let choice: ScryptChoice
    /// How long every core keeps verifying.
    let duration: Duration

    struct Report: Encodable {
        let scrypt: String
        let threads: Int
        let verifications: Int
        let seconds: Double
        let verificationsPerSecond: Double
    }

    /// Verifies one password on as many threads as the machine has cores until `duration` has
    /// passed, and counts.
    func measure() throws -> Report {
        let hasher = PasswordHasher(parameters: choice.parameters)
        let secret = "sca-bench scrypt bound"
        let stored = try hasher.hash(secret)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let verified = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while clock.now < deadline {
                if hasher.verify(secret, against: stored) {
                    verified.add(1, ordering: .relaxed)
                } else {
                    refused.add(1, ordering: .relaxed)
                }
            }
        }
        // Until the last verification ended, not the deadline: each thread finishes the one it began.
        let elapsed = clock.now - start
        guard refused.load(ordering: .relaxed) == 0 else { throw BenchError("scrypt refused its own password") }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let count = verified.load(ordering: .relaxed)
        return Report(
            scrypt: choice.summary, threads: threads, verifications: count, seconds: seconds,
            verificationsPerSecond: Double(count) / seconds)
    }
}
