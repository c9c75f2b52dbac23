import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import SCACore
import ServiceLifecycle

/// Every HTTP request the server makes on its own (partner webhooks, the message and push
/// gateways), over one shared client:
///
/// - No redirect is followed: a `3xx` is the answer, which callers count as a failure. (A
///   receiver could otherwise send the POST, signature included, or a GET, anywhere.)
/// - The host is resolved once, here; every address it resolved to is checked (when the
///   request has a policy) and the connection goes to one of those addresses. The client
///   reaches the network only through a local `CONNECT` tunnel (``ConnectTunnelHandler``) that
///   connects to an address pinned by the request (``OutboundPins``) and never resolves a name,
///   so a second DNS answer (rebinding) cannot move a checked request elsewhere. The request
///   itself is unchanged: its `Host` header, and for https the TLS server name and the name the
///   certificate is checked against, stay the URL's host, since TLS runs through the tunnel.
/// - A name that does not resolve is a failure (``OutboundRefusal/unresolved``), never a pass.
///
/// The client and the tunnel start at the first request and stop at ``shutdown()``: `serve`
/// runs this as a service of its group (stopped after the services that send), and work that
/// uses the services once stops it when its message deliveries end.
package actor OutboundHTTP: Service, CustomStringConvertible {
    /// What resolves a host name to its addresses (4 or 16 bytes each); tests pin names.
    package typealias Resolver = @Sendable (String) async -> [[UInt8]]

    private struct Running: Sendable {
        let client: HTTPClient
        let tunnel: any Channel
    }

    private let pins = OutboundPins()
    private let resolve: Resolver
    private var started: Task<Running, any Error>?

    package init(resolver: @escaping Resolver = { await HostResolver.addresses(of: $0) }) {
        self.resolve = resolver
    }

    nonisolated package var description: String { "OutboundHTTP" }

    /// POSTs `body` to `url` once.
    /// - Parameters:
    ///   - refusing: decides, for each address the host resolves to, whether it is refused
    ///     (and as what); nil lets any address through (a gateway the operator configured).
    /// - Returns: the HTTP status of the answer, a redirect included.
    /// - Throws: ``OutboundRefusal`` before connecting; the HTTP client's error when the
    ///   receiver was not reached or did not answer in time.
    package func post(
        _ url: URL, headers: [(String, String)], body: [UInt8], timeout: Duration,
        refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)? = nil
    ) async throws -> Int {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw OutboundRefusal.unresolved }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let addresses = await addresses(of: host)
        guard !addresses.isEmpty else { throw OutboundRefusal.unresolved }
        if let refusing {
            for address in addresses {
                if let kind = refusing(address) { throw OutboundRefusal.address(kind) }
            }
        }
        let client = try await running().client
        let token = pins.pin(addresses, host: host, port: port)
        defer { pins.unpin(token, host: host, port: port) }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        let response = try await client.execute(request, timeout: .nanoseconds(nanoseconds))
        // The answer's body is not used; read a bounded part so the connection ends cleanly.
        _ = try? await response.body.collect(upTo: 65_536)
        return Int(response.status.code)
    }

    /// The host's addresses: an IP literal (in any form a resolver takes) is its own address.
    private func addresses(of host: String) async -> [[UInt8]] {
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if let literal = SpecialPurposeAddress.literal(name) { return [literal] }
        return await resolve(name)
    }

    private func running() async throws -> Running {
        if let started { return try await started.value }
        let pins = self.pins
        let task = Task { try await Self.start(pins: pins) }
        started = task
        return try await task.value
    }

    private static func start(pins: OutboundPins) async throws -> Running {
        let tunnel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectTunnelHandler(pins: pins))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = tunnel.localAddress?.port else {
            try? await tunnel.close()
            throw OutboundRefusal.unresolved
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.proxy = .server(host: "127.0.0.1", port: port)
        // A connection serves one request, so each goes through its own pinned tunnel.
        configuration.maximumUsesPerConnection = 1
        configuration.httpVersion = .http1Only
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        return Running(client: client, tunnel: tunnel)
    }

    /// Stops the client and the tunnel; a later request starts them again.
    package func shutdown() async {
        guard let started else { return }
        self.started = nil
        guard let running = try? await started.value else { return }
        try? await running.client.shutdown()
        try? await running.tunnel.close()
    }

    /// Until a graceful shutdown, then ``shutdown()``.
    package func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    deinit {
        // A client dropped while running must still be shut down (it asserts so); the task
        // holds it until that is done.
        if let started {
            Task {
                guard let running = try? await started.value else { return }
                try? await running.client.shutdown()
                try? await running.tunnel.close()
            }
        }
    }
}
