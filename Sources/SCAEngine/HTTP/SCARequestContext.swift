import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage plus the peer address, so
/// the audit trail can name the client (or the proxy in front of it).
package struct SCARequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
