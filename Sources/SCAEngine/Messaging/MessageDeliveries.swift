import Foundation
import ServiceLifecycle

/// The background delivery of messages to users: runs the ``MessageDispatcher``'s
/// loop in the server's service group. At a graceful shutdown it takes no more messages and
/// delivers those waiting for at most `drainTimeout`; what is left then is given up (audited).
/// Put it before the HTTP server in the group, so the server has stopped answering (and
/// submitting) first.
package struct MessageDeliveries: Service {
    let dispatcher: MessageDispatcher
    let drainTimeout: Duration

    package init(dispatcher: MessageDispatcher, drainTimeout: Duration = .seconds(10)) {
        self.dispatcher = dispatcher
        self.drainTimeout = drainTimeout
    }

    package func run() async {
        await Self.deliver(dispatcher, drainTimeout: drainTimeout) {
            // Until a graceful shutdown (or cancellation, which stops everything at once).
            try? await gracefulShutdown()
        }
    }

    /// Runs the delivery loop while `stop` runs; when it returns, closes the queue and lets the
    /// loop drain for at most `drainTimeout`, then cancels it.
    static func deliver(_ dispatcher: MessageDispatcher, drainTimeout: Duration, until stop: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await dispatcher.run() }
            group.addTask {
                await stop()
                dispatcher.close()
                try? await Task.sleep(for: drainTimeout)
            }
            // The loop ends once drained; otherwise the drain's time is up first.
            await group.next()
            group.cancelAll()
        }
    }
}

// The service group logs each service by its description; the default one would reflect every
// stored property, the configuration's secrets and the services' keys included.
extension MessageDeliveries: CustomStringConvertible {
    package var description: String { "MessageDeliveries" }
}
