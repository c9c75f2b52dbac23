import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import SCACore

/// Bounds the time a client takes to send a request's body: from the moment its headers have
/// arrived until its end, at most `timeout`. A body that trickles in byte by byte would
/// otherwise hold the connection (and the handler waiting for it) for ever, since every byte
/// resets an idle timer. Beyond the bound the request is answered `408 request.timeout` and
/// the connection closed; if the answer has started already, the connection is just closed.
///
/// Headers are bounded by the connection's idle timeout (Hummingbird's, which only a complete
/// head or body part resets).
package final class RequestReadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {

    package init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// A response head has gone out for the request being read.
    private var responseStarted = false

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            responseStarted = false
            cancel()
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                self.expire(context)
            }
        case .body: break
        case .end: cancel()
        }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { responseStarted = true }
        context.write(data, promise: promise)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
    }

    private func expire(_ context: ChannelHandlerContext) {
        deadline = nil
        guard context.channel.isActive else { return }
        guard !responseStarted else {
            context.close(promise: nil)
            return
        }
        responseStarted = true
        let problem = Problem(
            status: 408, code: .requestTimeout, title: "Request timeout",
            detail: "The request body did not arrive in time.")
        let body = (try? WireJSON.encoder().encode(problem)) ?? Data()
        var head = HTTPResponse(status: .requestTimeout)
        head.headerFields[.contentType] = "application/problem+json"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[.connection] = "close"
        head.headerFields[.contentLength] = String(body.count)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension RequestReadTimeoutHandler: Sendable {}
