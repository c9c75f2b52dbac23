/// The flows of a run that ended in one window of time, and their latency: a long run's p99
/// says how bad the tail was, the windows say when (every minute, or growing with the run).
struct LatencyWindow: Codable, Sendable, Equatable {
    /// Seconds from the start of the run to the start of this window.
    var startSeconds: Double
    var flows: Int
    var p50Ms: Double
    var p99Ms: Double
    var maxMs: Double

    /// One window per index in `latencies` (microseconds by window index), in order; windows in
    /// which no flow ended are left out.
    static func windows(of latencies: [Int: [UInt32]], lengthSeconds seconds: Double) -> [LatencyWindow] {
        latencies.keys.sorted().map { index in
            let sorted = latencies[index, default: []].sorted()
            // The nearest-rank percentile: the smallest latency at or above which p % of the flows lie.
            func percentile(_ p: Double) -> Double {
                let rank = max(Int((p / 100 * Double(sorted.count)).rounded(.up)), 1)
                return Double(sorted[rank - 1]) / 1000
            }
            return LatencyWindow(
                startSeconds: Double(index) * seconds, flows: sorted.count, p50Ms: percentile(50), p99Ms: percentile(99),
                maxMs: Double(sorted.last ?? 0) / 1000)
        }
    }
}
