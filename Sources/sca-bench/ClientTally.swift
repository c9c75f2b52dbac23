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

    mutating func record(_ latency: Duration) {
        let (seconds, attoseconds) = latency.components
        let microseconds = UInt64(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        _ = latencies.record(min(max(microseconds, 1), latencies.highestTrackableValue))
        flows += 1
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
    }
}
