import Logging
import OTel
import SCAEngine
import SCAStorage
import ServiceLifecycle
import Tracing

/// What a server records its spans with (`tracing.*`): an OpenTelemetry tracer whose batch
/// processor sends them over OTLP/HTTP to the collector, or nothing when tracing is off.
///
/// The tracer is an instance the server is given (``recorder``, through `ServerRuntime` and
/// the store), never the process-wide `InstrumentationSystem`: one process may run several
/// servers, as the tests do, each with its own collector or none.
///
/// Only the W3C trace context is read from requests and written to outbound calls: the
/// `baggage` header would let any client put text of its own into what the server sends on.
package struct ServerTracing: Sendable {
    /// Where the server's spans go; `.off` without tracing.
    package let recorder: TraceRecorder
    /// The tracer's work: it hands ended spans to the batch processor, which sends a batch every
    /// few seconds and what is left at a graceful shutdown. It runs in the server's service
    /// group before the services that record spans, so it stops after them and loses none.
    /// Nil without tracing.
    package let service: (any Service)?

    /// Records nothing and runs nothing.
    package static let off = ServerTracing(recorder: .off, service: nil)

    private init(recorder: TraceRecorder, service: (any Service)?) {
        self.recorder = recorder
        self.service = service
    }

    /// The tracer `settings` ask for, `.off` when they do not enable tracing. The OpenTelemetry
    /// SDK's own `OTEL_*` variables, when set, take precedence over `settings`.
    /// - Parameter logger: where the exporter says what went wrong (a collector that does not
    ///   answer), at warning level.
    /// - Throws: the SDK's error for a configuration it cannot use.
    package static func make(_ settings: TracingSettings, logger: Logger) throws -> ServerTracing {
        guard settings.enabled else { return .off }
        var configuration = OTel.Configuration.default
        configuration.serviceName = settings.serviceName
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        // A request that names a sampled parent is recorded whatever the ratio, so a caller's
        // trace is never cut in the middle.
        configuration.traces.sampler =
            settings.sampleRatio >= 1 ? .parentBasedAlwaysOn : (.parentBasedTraceIDRatio(ratio: settings.sampleRatio) ?? .parentBasedAlwaysOn)
        configuration.traces.otlpExporter.endpoint = settings.endpoint
        configuration.traces.otlpExporter.protocol = settings.encoding == .json ? .httpJSON : .httpProtobuf
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return ServerTracing(recorder: TraceRecorder(backend.factory), service: backend.service)
    }
}
