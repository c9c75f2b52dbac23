import Foundation
import HTTPTypes
import Hummingbird

/// Sets `RequestInfo.current` for everything a request does.
package struct RequestInfoMiddleware<Context: RequestContext>: RouterMiddleware {
    /// A header such as `X-Forwarded-For` written by the proxy in front of the server. Only the
    /// last entry is believed: it is the one our own proxy appended; earlier ones came from the
    /// client and could say anything.
    let trustedProxyHeader: HTTPField.Name?
    /// Where the client certificate of mutual TLS comes from; nil when none is configured.
    let clientCertificates: ClientCertificateSource?

    package init(trustedProxyHeader: HTTPField.Name?, clientCertificates: ClientCertificateSource? = nil) {
        self.trustedProxyHeader = trustedProxyHeader
        self.clientCertificates = clientCertificates
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var address: String?
        if let name = trustedProxyHeader, let value = request.headers[name],
            let last = value.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            address = last
        } else if let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress {
            address = peer.ipAddress
        }
        let certificate = await clientCertificates?.certificate(
            of: request, connection: (context as? SCARequestContext)?.connection, logger: context.logger)
        let info = RequestInfo(requestID: context.id, clientAddress: address, clientCertificate: certificate)
        return try await RequestInfo.$current.withValue(info) {
            try await next(request, context)
        }
    }
}
