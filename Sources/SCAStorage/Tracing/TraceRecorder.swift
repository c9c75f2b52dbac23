import Tracing

/// The tracer a server was given, or none: every span of ours (a request, a store
/// transaction, an outbound call, a password hash) is opened through here.
///
/// It holds an instance rather than reading `InstrumentationSystem.tracer`, because one process
/// may run several servers (the tests do), each with its own exporter or none. A server without
/// tracing holds no tracer, so its hot paths pay one branch and no task-local write.
///
/// A span's parent is the task's current span (`InstrumentationContext.current`), so the store
/// and the hashing pool need no parameter to become children of the request that called them.
package struct TraceRecorder: Sendable {
    let tracer: (any Tracer)?

    /// Records into `tracer`'s spans; nil records nothing.
    package init(_ tracer: (any Tracer)?) {
        self.tracer = tracer
    }

    /// Records nothing: the default of every server and store.
    package static let off = TraceRecorder(nil)

    /// Whether spans are recorded.
    package var isOn: Bool { tracer != nil }

    /// Runs `body` inside a span named `name`, a child of `parent` (the task's current span by
    /// default), and ends the span when `body` returns or throws.
    ///
    /// A thrown error marks the span failed with only the error's type as its description
    /// (`error.type`): an error's text may quote the input that caused it, a code or an address.
    ///
    /// - Parameters:
    ///   - name: a low-cardinality name (`store.write`, `GET /v1/challenges/{id}`), never ids.
    ///   - kind: `server` for a request, `client` for an outbound call, `internal` otherwise.
    ///   - parent: the context to start from; a request passes the one its `traceparent` names.
    ///   - body: the work, given the span to add attributes to.
    /// - Throws: what `body` throws, unchanged.
    package func span<Result>(
        _ name: String, ofKind kind: SpanKind = .internal, parent: InstrumentationContext? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (RecordedSpan) async throws -> Result
    ) async throws -> Result {
        guard let tracer else { return try await body(RecordedSpan(span: nil)) }
        let span = tracer.startSpan(name, context: parent ?? InstrumentationContext.current ?? .topLevel, ofKind: kind)
        defer { span.end() }
        do {
            return try await InstrumentationContext.$current.withValue(span.context) {
                try await body(RecordedSpan(span: span))
            }
        } catch {
            RecordedSpan(span: span).fail(error)
            throw error
        }
    }

    /// As ``span(_:ofKind:parent:isolation:_:)``, but only inside another span (a request's,
    /// an outbound call's): a store transaction or a hash outside one (start-up, the periodic
    /// sweeps every second) would be a trace of one span, noise to whoever reads them.
    /// - Throws: what `body` throws, unchanged.
    package func childSpan<Result>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: (RecordedSpan) async throws -> Result
    ) async throws -> Result {
        guard InstrumentationContext.current != nil else { return try await body(RecordedSpan(span: nil)) }
        return try await span(name, isolation: isolation, body)
    }

    /// The parent a request names in its headers (`traceparent`, `tracestate`), over the task's
    /// current context; nil when nothing is recorded.
    /// - Parameter header: reads one header by its lower-case name.
    package func extractParent(_ header: @escaping @Sendable (String) -> String?) -> InstrumentationContext? {
        guard let tracer else { return nil }
        var context = InstrumentationContext.current ?? .topLevel
        tracer.extract(header, into: &context, using: HeaderLookup())
        return context
    }

    /// The headers that carry the task's current span to the next hop (`traceparent`, and
    /// `tracestate` when the trace has one); none when nothing is recorded.
    package func propagationHeaders() -> [(String, String)] {
        guard let tracer, let context = InstrumentationContext.current else { return [] }
        var headers: [(String, String)] = []
        tracer.inject(context, into: &headers, using: HeaderList())
        return headers
    }
}

/// Reads a header through a lookup function, whatever type the headers are kept in.
private struct HeaderLookup: Extractor {
    func extract(key: String, from carrier: @Sendable (String) -> String?) -> String? {
        carrier(key.lowercased())
    }
}

/// Appends a header to a list of name and value pairs (an outbound request's headers).
private struct HeaderList: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [(String, String)]) {
        carrier.append((key, value))
    }
}
