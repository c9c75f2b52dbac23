/// One simulated user as the runner drives it: the SDK client (``BenchClient``) or the raw one
/// (``RawClient``).
protocol LoadClient: Sendable {
    /// Runs one flow; nil when none could start before `deadline` (see ``BenchClient/runFlow(before:)``).
    mutating func runFlow(before deadline: ContinuousClock.Instant?) async throws -> Duration?
    /// How often the client waited for a fresh TOTP step (manual logins only).
    var poolWaits: Int { get }
}

/// Drives prepared clients concurrently, each through its flow again and again, until the stop
/// condition, and merges what they measured.
enum LoadRunner {
    /// When clients stop starting flows.
    enum Stop: Sendable {
        /// Start flows until this much time has passed; flows under way then are finished and counted.
        case after(Duration)
        /// Exactly this many flows per client (the smoke run).
        case flowsPerClient(Int)

        /// Whether a client that has started `started` flows may start one more.
        func allowsAnother(started: Int, elapsed: Duration) -> Bool {
            switch self {
            case .after(let duration): elapsed < duration
            case .flowsPerClient(let count): started < count
            }
        }
    }

    /// - Parameter pace: nil to start each client's next flow as soon as its last one ends (the
    ///   peak a fixed concurrency reaches); otherwise the time between two flow starts of one
    ///   client, the clients staggered over it, so that the run offers a fixed rate. A paced
    ///   flow's latency counts from when it was due, not from when it started: a client that falls
    ///   behind a slow server records the wait as well, as a user would see it.
    /// - Parameter window: report latency per window of this length too (``ClientTally/window``).
    /// - Returns: the merged tally and the wall time from the first flow to the last token.
    static func run<Client: LoadClient>(
        _ clients: [Client], until stop: Stop, pace: Duration? = nil, window: Duration? = nil
    ) async -> (tally: ClientTally, elapsed: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline: ContinuousClock.Instant? = if case .after(let duration) = stop { start + duration } else { nil }
        let tally = await withTaskGroup(of: ClientTally.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    var client = client
                    var tally = ClientTally(window: window)
                    var started = 0
                    var due = start + (pace ?? .zero) * (Double(index) / Double(clients.count))
                    while !Task.isCancelled, stop.allowsAnother(started: started, elapsed: clock.now - start) {
                        if pace != nil {
                            if let deadline, due >= deadline { break }
                            try? await clock.sleep(until: due)
                        }
                        started += 1
                        do {
                            guard let latency = try await client.runFlow(before: deadline) else { break }
                            if let pace {
                                let now = clock.now
                                tally.record(now - due, endingAt: now - start)
                                due += pace
                            } else {
                                tally.record(latency, endingAt: clock.now - start)
                            }
                        } catch {
                            if let pace { due += pace }
                            tally.record(error)
                        }
                    }
                    tally.poolWaits = client.poolWaits
                    return tally
                }
            }
            var merged = ClientTally(window: window)
            for await one in group { merged.add(one) }
            return merged
        }
        return (tally, clock.now - start)
    }
}
