import Foundation
import Prometheus
import Synchronization

/// The server's Prometheus metrics, in a registry owned by one `SCAServices` (not the global
/// `MetricsSystem`), so that two servers in one process (tests, several instances) never
/// share counters.
///
/// Every label is low-cardinality by construction: route templates, operation kinds,
/// method names, outcomes, channels. No user, device, challenge or session id is ever a
/// label (that would grow the series without bound and leak identities).
package struct ServerMetrics: Sendable {
    /// The version reported by `sca_build_info`.
    package static let version = "0.6.0"

    /// The registry `GET /metrics` renders.
    package let registry: PrometheusCollectorRegistry

    /// The last hour of the counters the console's live overview draws, minute by minute.
    package let history: ActivityHistory

    private let passwordHashDuration: ValueHistogram
    private let counters = CounterCache()

    /// Registers the fixed metrics (build info, the password-hash histogram) in a new registry.
    /// - Parameter now: the clock the overview's minutes are read on.
    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), now: @escaping @Sendable () -> Date = Date.init) {
        self.registry = registry
        history = ActivityHistory(now: now)
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "sca", metricName: "build_info", unitName: "",
                helpText: "Always 1; the version label names the running build."),
            labels: [("version", Self.version)]
        ).set(to: 1)
        passwordHashDuration = registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "sca", metricName: "password_hash_duration", unitName: "seconds",
                helpText: "Time to hash or verify one password or PIN (scrypt)."),
            // scrypt is tuned to tens to hundreds of milliseconds; finer buckets below 10 ms
            // only show test parameters.
            buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5])
    }

    /// Records one password or PIN hash (or verification).
    package func recordPasswordHash(seconds: Double) {
        passwordHashDuration.record(seconds)
    }

    /// Counts one HTTP request by its route template (never the raw path) and status.
    package func recordRequest(method: String, route: String, status: Int) {
        counter(
            "http_requests", help: "HTTP requests by route template and status.",
            labels: [("method", method), ("route", route), ("status", String(status))]
        ).increment()
    }

    /// Counts one failed partner-client authentication (`failed`) or one refused because the
    /// client is throttled (`throttled`). No client id is a label: the audit trail names it.
    package func recordClientAuthenticationFailure(outcome: String) {
        counter(
            "client_authentication_failures", help: "Failed or throttled partner-client authentications.",
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// Counts one challenge event (`created`, `completed`, `failed`, `expired`, `cancelled`)
    /// for an operation kind.
    package func recordChallenge(operation: String, event: String) {
        counter(
            "challenges", help: "Challenges by operation and event.",
            labels: [("operation", operation), ("event", event)]
        ).increment()
        switch event {
        case "created": history.record(.challengesCreated)
        case "completed": history.record(.challengesCompleted)
        default: break
        }
    }

    /// Counts one proof by method and outcome (`accepted`, `rejected`).
    package func recordProof(method: String, outcome: String) {
        counter("proofs", help: "Proofs by method and outcome.", labels: [("method", method), ("outcome", outcome)])
            .increment()
        if outcome != "accepted" { history.record(.failedProofs) }
    }

    /// Counts one lockout by kind (`temporary`, `permanent`).
    package func recordLockout(kind: String) {
        counter("lockouts", help: "Users blocked, by kind.", labels: [("kind", kind)]).increment()
        history.record(.lockouts)
    }

    /// Counts tokens issued by how (`issued`, `refreshed`).
    package func recordToken(operation: String) {
        counter("tokens", help: "Tokens issued, by operation.", labels: [("operation", operation)]).increment()
    }

    /// Counts one-time codes sent, by channel (`sms`, `email`).
    package func recordCodeSent(channel: String) {
        counter("codes_sent", help: "One-time codes sent, by channel.", labels: [("channel", channel)]).increment()
        history.record(.codesSent)
    }

    /// Counts one request refused by a budget across challenges, by action (`send`,
    /// `challenge`) and budget (`destination`, `user`, `client`, `global`).
    package func recordRateLimited(action: RateRefusal.Action, budget: RateBudgetScope) {
        counter(
            "rate_limited", help: "Sends and challenges refused by a rate budget, by action and budget.",
            labels: [("action", action.rawValue), ("budget", budget.rawValue)]
        ).increment()
    }

    /// Counts one message to a user given up, by channel and reason (`failed`,
    /// `dropped`).
    package func recordMessageUndelivered(channel: String, reason: String) {
        counter(
            "messages_undelivered", help: "Messages to users given up, by channel and reason.",
            labels: [("channel", channel), ("reason", reason)]
        ).increment()
    }

    /// The metrics in the Prometheus text exposition format.
    package func render() -> String {
        registry.emitToString()
    }

    /// The counter `sca_<name>_total` with `labels`, made on first use and then taken from
    /// this instance's cache: the registry's own lookup (names built, labels sorted and
    /// validated) cost about 9 000 instructions a call, and every request counts two.
    private func counter(_ name: String, help: String, labels: [(String, String)]) -> Counter {
        let key = CounterCache.Key(name: name, labelValues: labels.map(\.1))
        if let counter = counters.counter(for: key) { return counter }
        let counter = registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "sca", metricName: name, unitName: "total", helpText: help),
            labels: labels)
        counters.remember(counter, for: key)
        return counter
    }
}

/// The counters a ``ServerMetrics`` has made, by name and label values (each name has one
/// fixed list of label names, so the values identify the series).
private final class CounterCache: Sendable {
    struct Key: Hashable {
        var name: String
        var labelValues: [String]
    }

    private let counters = Mutex<[Key: Counter]>([:])

    func counter(for key: Key) -> Counter? {
        counters.withLock { $0[key] }
    }

    func remember(_ counter: Counter, for key: Key) {
        counters.withLock { $0[key] = counter }
    }
}
