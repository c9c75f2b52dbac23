import Histogram

/// What one client measured; merged into the run's figures at the end, so clients never share
/// a lock while they run.
struct ClientTally: Sendable {
    /// Latencies in microseconds, up to ten minutes (a slower flow is recorded as ten minutes).
    var latencies = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
    var flows = 0
    var errors = 0
    /// The first distinct error descriptions, to tell the reader what went wrong.
    var errorSamples: [String] = []
    var poolWaits = 0
    /// With a window length: each flow's latency in microseconds by the window it ended in
    /// (index = seconds since the start ÷ window), to show when in a long run the tail happened.
    var window: Duration?
    var windowLatencies: [Int: [UInt32]] = [:]

    init(window: Duration? = nil) {
        self.window = window
    }

    /// - Parameter elapsed: when the flow ended, from the start of the run (for ``window``).
    mutating func record(_ latency: Duration, endingAt elapsed: Duration = .zero) {
        let (seconds, attoseconds) = latency.components
        let microseconds = UInt64(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let recorded = min(max(microseconds, 1), latencies.highestTrackableValue)
        _ = latencies.record(recorded)
        flows += 1
        if let window {
            windowLatencies[Int(elapsed / window), default: []].append(UInt32(clamping: recorded))
        }
    }

    mutating func record(_ error: any Error) {
        errors += 1
        let text = String(describing: error)
        if errorSamples.count < 5, !errorSamples.contains(text) { errorSamples.append(text) }
    }

    mutating func add(_ other: ClientTally) {
        latencies.add(other.latencies)
        flows += other.flows
        errors += other.errors
        for sample in other.errorSamples where errorSamples.count < 5 && !errorSamples.contains(sample) {
            errorSamples.append(sample)
        }
        poolWaits += other.poolWaits
        windowLatencies.merge(other.windowLatencies) { $0 + $1 }
    }
}
