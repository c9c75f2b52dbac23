import Crypto
import Foundation
import SCACore
import SwiftASN1
import X509

/// The certificate a client proved it holds the key of, verified against `tls.clientCAFile`:
/// in this server's own TLS handshake (mutual TLS), or in the trusted proxy's, which forwards it
/// in `tls.clientCertificateHeader`. A request carries it as ``RequestInfo/clientCertificate``.
package struct ClientCertificate: Sendable, Hashable {
    /// The certificate as the client sent it (DER), the input of ``thumbprint``.
    package let derBytes: [UInt8]
    /// The same, parsed: subject, issuer, serial number, validity, public key.
    package let certificate: Certificate
    /// Base64url SHA-256 of ``derBytes``: the `x5t#S256` that binds a token to this certificate
    /// (RFC 8705, section 3.1).
    package let thumbprint: String

    /// - Throws: when `derBytes` is not an X.509 certificate.
    package init(derBytes: [UInt8]) throws {
        self.derBytes = derBytes
        certificate = try Certificate(derEncoded: derBytes)
        thumbprint = Base64URL.encode(SHA256.hash(data: derBytes))
    }

    /// A certificate as a proxy forwards it: one URL-encoded PEM block (nginx's
    /// `$ssl_client_escaped_cert`). Nil for an empty value (no certificate) or anything else.
    package init?(escapedPEM value: String) {
        guard let pem = value.removingPercentEncoding, pem.contains("-----BEGIN CERTIFICATE-----"),
            let document = try? PEMDocument(pemString: pem), document.discriminator == "CERTIFICATE"
        else { return nil }
        try? self.init(derBytes: document.derBytes)
    }
}
