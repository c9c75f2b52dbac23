import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// A collector on loopback, as a test needs one: it takes OTLP/HTTP JSON at `/v1/traces` and
/// keeps every span, and takes the message gateway's posts at `/gateway` with their headers.
final class OTLPReceiver: Sendable {
    /// One exported span, as the collector received it.
    struct ExportedSpan: Sendable {
        var traceID: String
        var spanID: String
        /// Nil for a root span.
        var parentSpanID: String?
        var name: String
        /// OTLP's numbering: 1 internal, 2 server, 3 client.
        var kind: Int
        var attributes: [String: String]
    }

    /// A post to the message gateway: its `traceparent` header and its body.
    struct GatewayPost: Sendable {
        var traceparent: String?
        var body: String
    }

    private let received = Mutex<(exports: [String], spans: [ExportedSpan], gateway: [GatewayPost])>(([], [], []))

    /// Every export's body, as sent (to search for what must never be in one).
    var exports: [String] { received.withLock { $0.exports } }
    var spans: [ExportedSpan] { received.withLock { $0.spans } }
    var gatewayPosts: [GatewayPost] { received.withLock { $0.gateway } }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = String(buffer: try await request.body.collect(upTo: 16 << 20))
            let spans = try Self.spans(inExport: body)
            self.received.withLock {
                $0.exports.append(body)
                $0.spans += spans
            }
            // An empty ExportTraceServiceResponse: everything was accepted.
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        router.post("/gateway") { request, _ -> HTTPResponse.Status in
            let body = String(buffer: try await request.body.collect(upTo: 65_536))
            let traceparent = request.headers[HTTPField.Name("traceparent")!]
            self.received.withLock { $0.gateway.append(GatewayPost(traceparent: traceparent, body: body)) }
            return .ok
        }
        return router
    }

    /// Waits until `condition` holds of what was received, for up to `seconds`: the batch
    /// processor sends on its own schedule.
    func wait(seconds: Double = 30, until condition: (OTLPReceiver) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition(self)
    }

    /// The spans of one OTLP/JSON export (`resourceSpans[].scopeSpans[].spans[]`), ids as
    /// lower-case hex whether the exporter wrote hex or base64.
    static func spans(inExport body: String) throws -> [ExportedSpan] {
        let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
        var spans: [ExportedSpan] = []
        for resource in json["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    var attributes: [String: String] = [:]
                    for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                        guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any] else { continue }
                        attributes[key] = value.values.first.map { "\($0)" } ?? ""
                    }
                    let parent = (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : hex($0) }
                    spans.append(
                        ExportedSpan(
                            traceID: hex(span["traceId"] as? String ?? ""), spanID: hex(span["spanId"] as? String ?? ""),
                            parentSpanID: parent, name: span["name"] as? String ?? "", kind: span["kind"] as? Int ?? 0,
                            attributes: attributes))
                }
            }
        }
        return spans
    }

    /// An id as lower-case hex: OTLP/JSON writes hex, protobuf's JSON mapping base64.
    static func hex(_ id: String) -> String {
        if id.count == 32 || id.count == 16, id.allSatisfy(\.isHexDigit) { return id.lowercased() }
        guard let bytes = Data(base64Encoded: id) else { return id }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
