import NIOCore
import NIOPosix

/// The server side of one `CONNECT host:port` from the outbound HTTP client: it connects to
/// an address the request pinned for that host (``OutboundPins``), answers `200` and glues the
/// two connections; anything else is answered `403` and closed. It never resolves a name.
/// TLS runs through the tunnel end to end, so the client still sends the original name as SNI
/// and checks the certificate against it.
package final class ConnectTunnelHandler: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    static let maxHeadSize = 8_192
    static let connectTimeout = TimeAmount.seconds(10)

    private let pins: OutboundPins
    private var head = ByteBuffer()
    private var answered = false

    init(pins: OutboundPins) {
        self.pins = pins
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The client sends nothing more before the answer.
        guard !answered else { return }
        var chunk = unwrapInboundIn(data)
        head.writeBuffer(&chunk)
        let text = String(buffer: head)
        guard let end = text.range(of: "\r\n\r\n") else {
            if head.readableBytes > Self.maxHeadSize { refuse(context) }
            return
        }
        answered = true
        let requestLine = text[..<end.lowerBound].split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        guard let (host, port) = Self.target(of: requestLine),
            let address = pins.addresses(host: host, port: port).first,
            let destination = try? SocketAddress(packedIPAddress: ByteBuffer(bytes: address), port: port)
        else {
            refuse(context)
            return
        }
        connect(context, to: destination)
    }

    /// The host and port of `CONNECT host:port HTTP/1.1` (an IPv6 host with or without brackets).
    package static func target(of requestLine: String) -> (String, Int)? {
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[0] == "CONNECT", parts[2].hasPrefix("HTTP/1."),
            let colon = parts[1].lastIndex(of: ":"), let port = Int(parts[1][parts[1].index(after: colon)...]),
            (1...65_535).contains(port)
        else { return nil }
        let host = String(parts[1][..<colon])
        return host.isEmpty ? nil : (host, port)
    }

    private func connect(_ context: ChannelHandlerContext, to destination: SocketAddress) {
        let loop = context.eventLoop
        let (local, remote) = GlueHandler.matchedPair()
        // The remote connection runs on this connection's loop, so each side may touch the other.
        let remoteHalf = NIOLoopBound(remote, eventLoop: loop)
        let localHalf = NIOLoopBound(local, eventLoop: loop)
        let boundContext = NIOLoopBound(context, eventLoop: loop)
        let boundSelf = NIOLoopBound(self, eventLoop: loop)
        ClientBootstrap(group: loop)
            .connectTimeout(Self.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(remoteHalf.value) }
            }
            .connect(to: destination)
            .whenComplete { result in
                let context = boundContext.value
                switch result {
                case .success(let channel):
                    guard context.channel.isActive else {
                        channel.close(promise: nil)
                        return
                    }
                    let answer = ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")
                    context.writeAndFlush(boundSelf.value.wrapOutboundOut(answer), promise: nil)
                    do {
                        try context.pipeline.syncOperations.addHandler(localHalf.value)
                        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                    } catch {
                        channel.close(promise: nil)
                        context.close(promise: nil)
                    }
                case .failure:
                    boundSelf.value.refuse(context)
                }
            }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        answered = true
        let answer = ByteBuffer(string: "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
    }
}

@available(*, unavailable)
extension ConnectTunnelHandler: Sendable {}
