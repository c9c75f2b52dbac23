import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The certificate authorities of `tls.clientCAFile`, read once at start-up: the trust roots
/// of this server's TLS handshakes, and what a certificate forwarded by the proxy is verified
/// against (the proxy's own check may be looser than ours, or misconfigured).
package struct ClientCertificateAuthorities: Sendable {
    /// The file's certificates, for the TLS handshake.
    package let trustRoots: [NIOSSLCertificate]
    private let roots: [Certificate]

    /// Reads a PEM bundle of one or more certificates.
    /// - Throws: `ConfigurationError` naming the file: unreadable, or holding no certificate.
    package init(file: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ConfigurationError("tls.clientCAFile \(file) cannot be read: \(error.localizedDescription)")
        }
        do {
            let documents = try PEMDocument.parseMultiple(pemString: text).filter { $0.discriminator == "CERTIFICATE" }
            roots = try documents.map { try Certificate(derEncoded: $0.derBytes) }
            trustRoots = try documents.map { try NIOSSLCertificate(bytes: $0.derBytes, format: .der) }
        } catch {
            throw ConfigurationError("tls.clientCAFile \(file) is not a PEM bundle of certificates: \(error)")
        }
        guard !roots.isEmpty else { throw ConfigurationError("tls.clientCAFile \(file) holds no certificate") }
    }

    /// Whether `certificate` chains to one of the authorities, through `intermediates` when the
    /// client sent some, and is valid at `time` (RFC 5280).
    package func verifies(_ certificate: ClientCertificate, intermediates: [Certificate] = [], at time: Date) async -> Bool {
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy(validationTime: time) }
        switch await verifier.validate(leaf: certificate.certificate, intermediates: CertificateStore(intermediates)) {
        case .validCertificate: return true
        case .couldNotValidate: return false
        }
    }
}
