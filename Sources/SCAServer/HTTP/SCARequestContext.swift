import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core storage plus the peer address, so
/// the audit trail can name the client (or the proxy in front of it).
public struct SCARequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
