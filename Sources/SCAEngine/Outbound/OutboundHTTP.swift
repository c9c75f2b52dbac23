import AsyncHTTPClient
import Foundation
import NIOCore
import SCACore
import SCAStorage

/// Every HTTP request the server makes on its own (partner webhooks, logout tokens and CIBA
/// pings, partners' published keys, the message and push gateways):
///
/// - No redirect is followed: a `3xx` is the answer, which callers count as a failure. (A
///   receiver could otherwise have the POST, signature included, or a GET sent anywhere.)
/// - The host is resolved once, here; every address it resolved to is checked (when the
///   request has a policy), and the connection goes to the first checked address: the
///   request's client maps the host to that address (async-http-client's `dnsOverride`), so
///   nothing resolves the name a second time and a second DNS answer (rebinding) cannot move
///   a checked request elsewhere. The request is otherwise unchanged: its `Host` header, and
///   for https the TLS server name and the name the certificate is checked against, stay the
///   URL's host.
/// - A name that does not resolve is a failure (``OutboundRefusal/unresolved``), never a pass.
///
/// With tracing, each request is a client span (`outbound.http`) naming its purpose, the
/// partner client and the answer's status, never the URL or an address; its `traceparent`
/// header carries the span to the receiver, so a partner can join its own trace to ours.
///
/// Each request has a client of its own on the shared event loops, because the host-to-address
/// map is the client's; these requests are background work (deliveries, gateway calls), few
/// enough that a connection per request costs nothing that matters.
package struct OutboundHTTP: Sendable {
    /// What resolves a host name to its addresses (4 or 16 bytes each); tests pin names.
    package typealias Resolver = @Sendable (String) async -> [[UInt8]]

    private let resolve: Resolver
    private let tracing: TraceRecorder

    package init(resolver: @escaping Resolver = { await HostResolver.addresses(of: $0) }, tracing: TraceRecorder = .off) {
        self.resolve = resolver
        self.tracing = tracing
    }

    /// POSTs `body` to `url` once.
    /// - Parameters:
    ///   - purpose: what the call is for, as its span says.
    ///   - refusing: decides, for each address the host resolves to, whether it is refused
    ///     (and as what); nil lets any address through (a gateway the operator configured).
    /// - Returns: the HTTP status of the answer, a redirect included.
    /// - Throws: ``OutboundRefusal`` before connecting; the HTTP client's error when the
    ///   receiver was not reached or did not answer in time.
    package func post(
        _ url: URL, headers: [(String, String)], body: [UInt8], timeout: Duration, for purpose: OutboundPurpose,
        refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)? = nil
    ) async throws -> Int {
        // The answer's body is not used; a bounded part is read so the connection ends cleanly.
        try await traced(isGet: false, url, headers: headers, body: body, timeout: timeout, for: purpose, refusing: refusing, readingUpTo: 65_536)
            .status
    }

    /// GETs `url` once, as ``post(_:headers:body:timeout:for:refusing:)`` posts.
    /// - Parameter maximumBytes: the longest answer taken; a longer one throws.
    /// - Returns: the HTTP status and the answer's body.
    package func get(
        _ url: URL, headers: [(String, String)] = [], timeout: Duration, maximumBytes: Int, for purpose: OutboundPurpose,
        refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)? = nil
    ) async throws -> (status: Int, body: [UInt8]) {
        try await traced(
            isGet: true, url, headers: headers, body: nil, timeout: timeout, for: purpose, refusing: refusing, readingUpTo: maximumBytes)
    }

    /// ``send(isGet:_:headers:body:timeout:refusing:readingUpTo:)`` in a span of its own, with
    /// the span's `traceparent` added to the headers.
    private func traced(
        isGet: Bool, _ url: URL, headers: [(String, String)], body: [UInt8]?, timeout: Duration, for purpose: OutboundPurpose,
        refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)?, readingUpTo limit: Int
    ) async throws -> (status: Int, body: [UInt8]) {
        guard tracing.isOn else {
            return try await send(isGet: isGet, url, headers: headers, body: body, timeout: timeout, refusing: refusing, readingUpTo: limit)
        }
        let method = isGet ? "GET" : "POST"
        return try await tracing.span("outbound.http", ofKind: .client) { span in
            span.set("http.request.method", method)
            span.set("sca.outbound.purpose", purpose.name)
            span.set("sca.client_id", purpose.clientID)
            let answer = try await send(
                isGet: isGet, url, headers: headers + tracing.propagationHeaders(), body: body, timeout: timeout,
                refusing: refusing, readingUpTo: limit)
            span.set("http.response.status_code", answer.status)
            if answer.status >= 400 { span.fail(reason: String(answer.status)) }
            return answer
        }
    }

    private func send(
        isGet: Bool, _ url: URL, headers: [(String, String)], body: [UInt8]?, timeout: Duration,
        refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)?, readingUpTo limit: Int
    ) async throws -> (status: Int, body: [UInt8]) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw OutboundRefusal.unresolved }
        let addresses = await addresses(of: host)
        guard let target = addresses.first.flatMap(Self.literal) else { throw OutboundRefusal.unresolved }
        if let refusing {
            for address in addresses {
                if let kind = refusing(address) { throw OutboundRefusal.address(kind) }
            }
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.dnsOverride = [Self.unbracketed(host): target]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = isGet ? .GET : .POST
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let status = Int(response.status.code)
            let answer: [UInt8]
            if isGet {
                answer = Array(buffer: try await response.body.collect(upTo: limit))
            } else {
                answer = []
                _ = try? await response.body.collect(upTo: limit)
            }
            try await client.shutdown()
            return (status, answer)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The host's addresses: an IP literal (in any form a resolver takes) is its own address.
    private func addresses(of host: String) async -> [[UInt8]] {
        let name = Self.unbracketed(host)
        if let literal = SpecialPurposeAddress.literal(name) { return [literal] }
        return await resolve(name)
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// `[127, 0, 0, 1]` → `127.0.0.1`; 16 bytes → the IPv6 text form; nil for another length.
    package static func literal(_ address: [UInt8]) -> String? {
        switch address.count {
        case 4:
            return address.map(String.init).joined(separator: ".")
        case 16:
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written = address.withUnsafeBytes { bytes in
                inet_ntop(AF_INET6, bytes.baseAddress, &text, socklen_t(text.count))
            }
            guard written != nil else { return nil }
            return String(cString: text)
        default:
            return nil
        }
    }
}
