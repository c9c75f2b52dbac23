import Foundation

/// OpenTelemetry traces (docs/operations.md, Traces): off by default. When on, each request is
/// a span, with a child for each store transaction, outbound call and password hash, sent over
/// OTLP/HTTP to a collector.
package struct TracingSettings: Sendable {
    /// Whether spans are recorded and exported.
    package var enabled = false
    /// The collector's OTLP/HTTP traces URL, used as it is (no `/v1/traces` is added).
    package var endpoint = "http://127.0.0.1:4318/v1/traces"
    /// How spans are encoded on the wire.
    package var encoding: TracingEncoding = .protobuf
    /// The `service.name` of every span.
    package var serviceName = "sca-server"
    /// The fraction of new traces recorded (0 to 1). A request that names a parent with
    /// `traceparent` follows its parent's decision instead.
    package var sampleRatio = 1.0

    package init() {}

    /// Checked whether tracing is on or not, so a mistake shows before it is turned on.
    /// - Throws: `ConfigurationError` naming the setting.
    func validate() throws {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError("tracing.endpoint must be an http or https URL, got \"\(endpoint)\"")
        }
        // The URL is logged by the exporter when a send fails: a password in it would be too.
        guard url.user == nil, url.password == nil else {
            throw ConfigurationError("tracing.endpoint must not carry a user or password; a collector's credential belongs in a header")
        }
        guard !serviceName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ConfigurationError("tracing.serviceName must not be empty")
        }
        guard sampleRatio.isFinite, (0...1).contains(sampleRatio) else {
            throw ConfigurationError("tracing.sampleRatio must be between 0 and 1, got \(sampleRatio)")
        }
    }
}

/// The OTLP/HTTP encodings a collector accepts.
package enum TracingEncoding: String, Sendable, CaseIterable {
    /// `application/x-protobuf`: the default of OTLP, the smallest.
    case protobuf
    /// `application/json`: readable, for a collector or proxy that inspects what it receives.
    case json
}
