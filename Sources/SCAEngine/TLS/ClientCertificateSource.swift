import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOSSL

/// Where a request's client certificate comes from, when the server is configured for one.
package enum ClientCertificateSource: Sendable {
    /// This server's own TLS handshake, which verified it against `tls.clientCAFile` (a
    /// certificate that does not verify ends the handshake, so none reaches a request).
    case handshake
    /// The proxy in front, which terminated TLS and forwards the certificate in this header.
    /// Behind the proxy every connection is the proxy's, so the header is the only source; the
    /// certificate is verified again here, at the injected clock's time, against the authorities
    /// of `tls.clientCAFile` as last read (the file is read again when it changes).
    case proxyHeader(HTTPField.Name, authorities: @Sendable () -> ClientCertificateAuthorities, now: @Sendable () -> Date)

    /// The verified certificate of `request`, which came on `connection`; nil without one.
    func certificate(of request: Request, connection: (any Channel)?, logger: Logger) async -> ClientCertificate? {
        switch self {
        case .handshake:
            // Plain HTTP (a test's router) has no TLS handler: no certificate.
            guard let connection, let peer = try? await connection.nioSSL_peerCertificate().get(),
                let der = try? peer.toDERBytes()
            else { return nil }
            return try? ClientCertificate(derBytes: der)
        case .proxyHeader(let name, let authorities, let now):
            guard let value = request.headers[name], !value.isEmpty else { return nil }
            guard let certificate = ClientCertificate(escapedPEM: value) else {
                logger.notice("the forwarded client certificate is not a URL-encoded PEM certificate; ignored")
                return nil
            }
            guard await authorities().verifies(certificate, at: now()) else {
                logger.notice(
                    "the forwarded client certificate does not verify against tls.clientCAFile; ignored",
                    metadata: ["thumbprint": "\(certificate.thumbprint)"])
                return nil
            }
            return certificate
        }
    }
}
