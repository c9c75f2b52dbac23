import HTTPTypes

/// HTTPS served by the server itself and the client certificates of mutual TLS (docs/tls.md).
/// All off by default: the embedded default speaks plain HTTP on the loopback address.
package struct TLSSettings: Sendable {
    /// PEM certificate chain, the server's certificate first, then its intermediates. With
    /// `privateKeyFile` the server answers HTTPS only (TLS 1.2 and 1.3), and reloads both files
    /// when they change.
    package var certificateFile: String?
    /// PEM private key of the chain's first certificate.
    package var privateKeyFile: String?
    /// PEM bundle of the certificate authorities whose client certificates are accepted. A
    /// client may then present a certificate during the handshake (one that does not verify
    /// ends the handshake); a verified one is given to the request (`RequestInfo.clientCertificate`).
    package var clientCAFile: String?
    /// Behind a reverse proxy that terminates TLS: the header in which it forwards the client's
    /// certificate, as URL-encoded PEM (nginx's `$ssl_client_escaped_cert`). Believed only with
    /// `trustedProxyHeader`, as the client address is, and checked against `clientCAFile`.
    package var clientCertificateHeader: String?
    /// Whether every `/admin/v1` request needs a verified client certificate besides its
    /// credential (`403 auth.client_certificate_required` without one).
    package var adminRequiresClientCertificate = false

    package init() {}

    /// Whether the server answers HTTPS.
    package var servesHTTPS: Bool { certificateFile != nil }

    /// The settings that depend on each other; the files themselves are read at start-up.
    /// - Throws: `ConfigurationError` naming the setting.
    func validate(trustedProxyHeader: String?) throws {
        guard (certificateFile == nil) == (privateKeyFile == nil) else {
            throw ConfigurationError("tls.certificateFile and tls.privateKeyFile must be set together, or neither")
        }
        if let clientCertificateHeader {
            guard HTTPField.Name(clientCertificateHeader) != nil else {
                throw ConfigurationError("tls.clientCertificateHeader is not a header name: \(clientCertificateHeader)")
            }
            // The same trust as the client address: a server reachable without the proxy would
            // take a certificate any client wrote into the header.
            guard trustedProxyHeader != nil else {
                throw ConfigurationError(
                    "tls.clientCertificateHeader needs trustedProxyHeader: the header is believed only behind the proxy that writes it")
            }
        }
        if clientCAFile != nil {
            guard servesHTTPS || clientCertificateHeader != nil else {
                throw ConfigurationError("tls.clientCAFile needs tls.certificateFile (HTTPS here) or tls.clientCertificateHeader (behind a proxy)")
            }
        } else if clientCertificateHeader != nil {
            throw ConfigurationError("tls.clientCertificateHeader needs tls.clientCAFile, to verify the certificates the proxy forwards")
        }
        if adminRequiresClientCertificate, clientCAFile == nil {
            throw ConfigurationError("tls.adminRequiresClientCertificate needs tls.clientCAFile, the authorities whose certificates are accepted")
        }
    }
}
