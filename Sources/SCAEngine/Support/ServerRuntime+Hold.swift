import Foundation
import ServiceLifecycle

extension ServerRuntime {
    /// Holds a request open for up to `seconds` on this runtime's clock until `look` finds an
    /// answer: one open request instead of a client polling. It looks now and then once a second,
    /// so an answer written by another instance is seen as well. A graceful shutdown ends the hold
    /// at once, so a waiting client never keeps the server from stopping; it asks again, perhaps
    /// of another instance.
    /// - Returns: `look`'s answer, or `nil` when the time ran out or the server is stopping.
    package func hold<Answer>(upTo seconds: Int, until look: () async throws -> Answer?) async throws -> Answer? {
        let deadline = now().addingTimeInterval(TimeInterval(seconds))
        while !Task.isShuttingDownGracefully {
            if let answer = try await look() { return answer }
            let left = deadline.timeIntervalSince(now())
            guard left > 0 else { return nil }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(min(1, left))) }
            } catch where Task.isShuttingDownGracefully && !Task.isCancelled {
                return nil
            }
        }
        return nil
    }
}
