import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage plus the peer address, so
/// the audit trail can name the client (or the proxy in front of it), and the connection, whose
/// TLS handshake holds the client certificate of mutual TLS.
package struct SCARequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    /// The connection the request came on (read by ``RequestInfoMiddleware`` for its TLS peer).
    package let connection: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connection = source.channel
    }
}
