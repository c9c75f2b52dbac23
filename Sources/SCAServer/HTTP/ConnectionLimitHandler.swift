import NIOCore
import NIOHTTPTypes

/// Caps the connections served at once: a connection beyond ``ConnectionCounter/limit`` is
/// closed as soon as it is accepted, before anything is read from it. (Hummingbird's own
/// limit stops accepting instead, which leaves the excess waiting in the kernel's backlog
/// where a client cannot tell a full server from a slow one.)
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let counter: ConnectionCounter
    /// Whether this connection holds a place, to give it back exactly once.
    private var holdsPlace = false
    private var decided = false

    init(counter: ConnectionCounter) {
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        giveBack()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        giveBack()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        if counter.acquire() {
            holdsPlace = true
        } else {
            context.close(promise: nil)
        }
    }

    private func giveBack() {
        if holdsPlace {
            holdsPlace = false
            counter.release()
        }
    }
}

@available(*, unavailable)
extension ConnectionLimitHandler: Sendable {}
