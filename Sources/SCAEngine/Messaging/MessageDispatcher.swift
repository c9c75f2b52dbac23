import Foundation
import Logging
import SCACore
import Synchronization
import Tracing

/// The one way a message reaches a user (codes, sign-up notices, lockout alerts, push
/// notifications of operations), so that no request waits for a gateway.
///
/// A request only calls ``submit(_:)``: the message is appended to a bounded queue in memory
/// (constant, tiny work, no I/O) and the request goes on. Whether the address is known, the
/// gateway slow or down, the answer and its time stay the same: a decoy, which sends nothing,
/// is not told apart by the round trip a real address would cost. The delivery loop
/// (``run()``, run by ``MessageDeliveries`` in the server's service group) sends the messages,
/// a few at once, and tries a failed one again after a back-off that doubles
/// (`messageDeliveryAttempts`, `messageRetryBackoff`). A message given up (after its last
/// attempt, or dropped because `messageQueueLimit` messages are waiting, or left when the
/// server stops) gets an `error` log line, the `sca_messages_undelivered_total` counter and
/// the audit entry `message.delivery_failed`: channel, purpose, user and challenge, never the
/// text, which may hold a code.
///
/// The queue lives in memory only, so codes are never written anywhere in plaintext: a crash of
/// the process loses the messages waiting (their users ask for another code). A graceful
/// shutdown delivers what is waiting within a bounded time.
///
/// The development outbox (``OutboxMessageSender``) is written inline instead, by `submit`:
/// it is a local file, not a gateway's round trip, it exists for development only (the gateway
/// sender is what production uses), and developers, the demo and the tests read a code from it
/// right after the answer that sent it; queued, every such read would race the delivery.
package final class MessageDispatcher: Sendable {
    let sender: any MessageSender
    let inline: Bool
    let attempts: Int
    let backoff: Duration
    let limit: Int
    /// Messages sent at once: a slow gateway holds one slot, not the queue.
    let concurrency: Int
    let audit: AuditTrail
    let metrics: ServerMetrics
    let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var waiting: [QueuedMessage] = []
        /// Index of the oldest waiting message in `waiting` (taken ones are cut off in batches).
        var head = 0
        /// The delivery loop, when it waits for a message.
        var consumer: CheckedContinuation<QueuedMessage?, Never>?
        /// Messages submitted and not yet delivered or given up.
        var unfinished = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// No more messages are taken (graceful shutdown): the loop ends once the queue is empty.
        var closed = false
        /// A delivery loop runs (there is one consumer at a time).
        var looping = false

        var count: Int { waiting.count - head }

        mutating func takeFirst() -> QueuedMessage? {
            guard head < waiting.count else { return nil }
            let first = waiting[head]
            head += 1
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024 {
                waiting.removeFirst(head)
                head = 0
            }
            return first
        }
    }

    /// - Parameters:
    ///   - inline: deliver within ``submit(_:)`` (the development outbox only, see above).
    ///   - attempts: tries per message (at least 1).
    ///   - backoff: the wait before the second try; it doubles for each further one.
    ///   - limit: messages that may wait; one more is dropped.
    ///   - concurrency: messages sent at once.
    package init(
        sender: any MessageSender, inline: Bool = false, attempts: Int, backoff: Duration, limit: Int, concurrency: Int,
        audit: AuditTrail, metrics: ServerMetrics, logger: Logger
    ) {
        self.sender = sender
        self.inline = inline
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.limit = max(1, limit)
        self.concurrency = max(1, concurrency)
        self.audit = audit
        self.metrics = metrics
        self.logger = logger
    }

    /// Hands `queued` over for delivery and returns at once, without I/O (except for the inline
    /// development outbox). Never fails: a message that cannot be queued is given up as above,
    /// in the background, and the caller answers as if it were sent.
    package func submit(_ queued: QueuedMessage) async {
        if inline {
            do {
                try await sender.send(queued.message)
            } catch {
                await giveUp(queued, outcome: "failed", attempts: 1)
            }
            return
        }
        enqueue(queued)
    }

    /// The constant-time part of ``submit(_:)``.
    func enqueue(_ queued: QueuedMessage) {
        enum Placed { case queued, handed(CheckedContinuation<QueuedMessage?, Never>), refused }
        let placed = state.withLock { state -> Placed in
            // One more tracked either way: a refused message's audit entry is written by a task.
            state.unfinished += 1
            guard !state.closed, state.count < limit else { return .refused }
            if let consumer = state.consumer {
                state.consumer = nil
                return .handed(consumer)
            }
            state.waiting.append(queued)
            return .queued
        }
        switch placed {
        case .queued: break
        case .handed(let consumer): consumer.resume(returning: queued)
        case .refused:
            // The request does not wait for the audit write: under a full queue only known
            // addresses get here, and their answer must take no longer than a decoy's.
            Task { [self] in
                await giveUp(queued, outcome: "dropped", attempts: 0)
                finishOne()
            }
        }
    }

    /// Returns once every message submitted so far is delivered or given up (its audit entry
    /// written). For tests and a bounded drain; it does not stop new messages.
    package func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.unfinished == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Messages waiting for the delivery loop (not those being sent).
    package var waitingCount: Int { state.withLock { $0.count } }

    /// Takes no more messages (later ones are dropped and audited); the delivery loop ends
    /// once those waiting are sent. For a graceful shutdown.
    package func close() {
        let consumer = state.withLock { state -> CheckedContinuation<QueuedMessage?, Never>? in
            state.closed = true
            guard state.count == 0 else { return nil }
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume(returning: nil)
    }

    /// The delivery loop: sends waiting messages, `concurrency` at once, until ``close()`` and
    /// an empty queue, or until cancelled; a cancelled loop gives up what is left (audited).
    /// One loop at a time per dispatcher: a second one, while the first runs, returns at once.
    /// A loop started after ``close()`` opens the queue again.
    package func run() async {
        guard state.withLock({ state in
            guard !state.looping else { return false }
            // A loop after a drain takes messages again (a test's server run twice).
            state.looping = true
            state.closed = false
            return true
        }) else {
            logger.warning("a message delivery loop already runs")
            return
        }
        defer { state.withLock { $0.looping = false } }
        await AuditTrail.$actor.withValue("server") {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                while true {
                    // A message is taken only when a slot is free: until then it counts
                    // against `limit`, so the queue holds at most `limit` messages.
                    if running >= concurrency {
                        await group.next()
                        running -= 1
                    }
                    guard let queued = await next() else { break }
                    group.addTask {
                        await self.deliver(queued)
                        self.finishOne()
                    }
                    running += 1
                }
            }
            // Cancelled (a drain that took too long, or a test's server stopping): what still
            // waits will not be sent by this process.
            while let left = state.withLock({ $0.takeFirst() }) {
                await giveUp(left, outcome: "dropped", attempts: 0)
                finishOne()
            }
        }
    }

    /// The next message, nil once closed and empty or when the task is cancelled.
    private func next() async -> QueuedMessage? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<QueuedMessage?, Never>) in
                enum Next { case message(QueuedMessage), end, wait }
                let next = state.withLock { state -> Next in
                    if Task.isCancelled { return .end }
                    if let first = state.takeFirst() { return .message(first) }
                    if state.closed { return .end }
                    state.consumer = continuation
                    return .wait
                }
                switch next {
                case .message(let queued): continuation.resume(returning: queued)
                case .end: continuation.resume(returning: nil)
                case .wait: break
                }
            }
        } onCancel: {
            let consumer = state.withLock { state -> CheckedContinuation<QueuedMessage?, Never>? in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(returning: nil)
        }
    }

    /// Up to `attempts` tries, with a doubling back-off between them; gives up after the last.
    private func deliver(_ queued: QueuedMessage) async {
        guard let trace = queued.trace else { return await deliverAttempts(queued) }
        await InstrumentationContext.$current.withValue(trace) { await deliverAttempts(queued) }
    }

    private func deliverAttempts(_ queued: QueuedMessage) async {
        var wait = backoff
        for attempt in 1...attempts {
            do {
                try await sender.send(queued.message)
                return
            } catch {
                guard attempt < attempts, !Task.isCancelled else {
                    await giveUp(queued, outcome: Task.isCancelled ? "dropped" : "failed", attempts: attempt)
                    return
                }
                logger.warning(
                    "message not delivered, will try again",
                    metadata: [
                        "channel": "\(queued.message.channel.rawValue)", "purpose": "\(queued.purpose.rawValue)",
                        "attempt": "\(attempt)",
                    ])
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    await giveUp(queued, outcome: "dropped", attempts: attempt)
                    return
                }
                wait *= 2
            }
        }
    }

    /// The record of a message given up: log, metric, audit entry; never the text.
    private func giveUp(_ queued: QueuedMessage, outcome: String, attempts: Int) async {
        let channel = queued.message.channel
        logger.error(
            "message given up",
            metadata: [
                "outcome": "\(outcome)", "channel": "\(channel.rawValue)", "purpose": "\(queued.purpose.rawValue)",
                "attempts": "\(attempts)", "user": "\(queued.userID ?? "-")", "challenge": "\(queued.challengeID ?? "-")",
            ])
        metrics.recordMessageUndelivered(channel: channel.rawValue, reason: outcome)
        var details = ["purpose": queued.purpose.rawValue, "attempts": String(attempts)]
        if let operationID = queued.message.operationId { details["operationId"] = operationID }
        // In a task of its own: a loop cancelled at the end of a drain still writes the entry
        // (the store may refuse work to a cancelled task).
        let audit = self.audit
        await Task {
            await audit.record(
                .messageDeliveryFailed, outcome: outcome, userID: queued.userID,
                deviceID: channel == .push ? queued.message.to : nil, challengeID: queued.challengeID, channel: channel,
                details: details)
        }.value
    }

    /// One message delivered or given up; wakes the idle waiters when none is left.
    private func finishOne() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.unfinished -= 1
            guard state.unfinished == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
