import NIOCore
import NIOHTTPTypes

/// Caps the connections served at once: a connection beyond ``ConnectionCounter/limit`` is
/// closed as soon as it is accepted, before anything is read from it. (Hummingbird's own
/// limit stops accepting instead, which leaves the excess waiting in the kernel's backlog
/// where a client cannot tell a full server from a slow one.) A connection is counted against
/// its peer's address too, unless ``perAddress`` is off (behind a reverse proxy every peer is
/// the proxy: ``RequestAddressLimitMiddleware`` caps each forwarded address instead).
package final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {

    package init(counter: ConnectionCounter, perAddress: Bool = true) {
        self.counter = counter
        self.perAddress = perAddress
    }

    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart

    private let counter: ConnectionCounter
    /// Whether this connection holds a place, to give it back exactly once.
    private var holdsPlace = false
    private var decided = false
    private let perAddress: Bool
    /// The peer address this connection's place is counted against.
    private var address: String?

    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    package func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        giveBack()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        giveBack()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        let peer = perAddress ? context.channel.remoteAddress?.ipAddress : nil
        if counter.acquire(address: peer) {
            address = peer
            holdsPlace = true
        } else {
            context.close(promise: nil)
        }
    }

    private func giveBack() {
        if holdsPlace {
            holdsPlace = false
            counter.release(address: address)
        }
    }
}

@available(*, unavailable)
extension ConnectionLimitHandler: Sendable {}
