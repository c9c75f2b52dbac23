import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made by a test, with P-256 keys made on the spot: it signs the
/// server's and the clients' certificates the TLS tests write to a temporary directory, so no
/// private key is ever committed and nothing is fetched.
struct TestCertificateAuthority {
    let name: String
    let key: P256.Signing.PrivateKey
    let certificate: Certificate

    /// A certificate and its key, as files hold them.
    struct Issued {
        let certificate: Certificate
        let key: P256.Signing.PrivateKey

        var certificatePEM: String { (try? certificate.serializeAsPEM().pemString) ?? "" }
        var keyPEM: String { key.pemRepresentation }
        /// The serial number in hex, as Python's `getpeercert()` and `openssl x509 -serial` write it.
        var serialNumber: String { certificate.serialNumber.bytes.map { String(format: "%02X", $0) }.joined() }
    }

    /// Valid from a week ago to a week ahead, so that a test may verify at another time than now.
    init(name: String) throws {
        self.name = name
        key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 7 * 86_400, notValidAfter: now + 7 * 86_400, issuer: subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    var certificatePEM: String { (try? certificate.serializeAsPEM().pemString) ?? "" }

    /// A server certificate for `localhost` and 127.0.0.1.
    func issueServer(notValidAfter: Date = Date() + 86_400) throws -> Issued {
        try issue(
            commonName: "localhost", notValidBefore: Date() - 3_600, notValidAfter: notValidAfter, usage: .serverAuth,
            names: SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))]))
    }

    /// A client certificate; an expired one with `expired`.
    func issueClient(_ commonName: String, expired: Bool = false) throws -> Issued {
        let now = Date()
        return try issue(
            commonName: commonName, notValidBefore: expired ? now - 2 * 86_400 : now - 3_600,
            notValidAfter: expired ? now - 86_400 : now + 86_400, usage: .clientAuth, names: nil)
    }

    private func issue(
        commonName: String, notValidBefore: Date, notValidAfter: Date, usage: ExtendedKeyUsage.Usage,
        names: SubjectAlternativeNames?
    ) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: self.certificate.subject, subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([usage])
                if let names { names }
            },
            issuerPrivateKey: Certificate.PrivateKey(self.key))
        return Issued(certificate: certificate, key: key)
    }
}
