import Dispatch

/// Runs CPU-heavy synchronous work (scrypt) off Swift's cooperative pool, so that a burst of
/// password proofs does not starve every other route of threads.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "sca.blocking-work", attributes: .concurrent)

    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result<Value, any Error>(catching: work)) }
        }
    }
}
