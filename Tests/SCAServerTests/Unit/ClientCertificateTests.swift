import Crypto
import Foundation
import SCACore
import SCAEngine
import SwiftASN1
import Testing

@Suite("Client certificates: as a proxy forwards them, their thumbprint, and their check against the CA file")
struct ClientCertificateTests {
    @Test("nginx's URL-encoded PEM is read back to the same DER; x5t#S256 is base64url SHA-256 of it; anything else is nil")
    func escapedPEM() throws {
        let authority = try TestCertificateAuthority(name: "test CA")
        let issued = try authority.issueClient("ops")
        let der = try issued.certificate.serializeAsPEM().derBytes
        let escaped = try #require(issued.certificatePEM.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(escaped.contains("%0A"))
        let certificate = try #require(ClientCertificate(escapedPEM: escaped))
        #expect(certificate.derBytes == der)
        #expect(certificate.certificate == issued.certificate)
        #expect(certificate.thumbprint == Base64URL.encode(SHA256.hash(data: der)))
        #expect(certificate.thumbprint.count == 43)
        // An unencoded PEM reads the same (nothing to decode in it but its line breaks).
        #expect(ClientCertificate(escapedPEM: issued.certificatePEM) == certificate)

        for wrong in ["", "(null)", "-----BEGIN CERTIFICATE-----%0Anot base64%0A-----END CERTIFICATE-----%0A", issued.keyPEM] {
            #expect(ClientCertificate(escapedPEM: wrong) == nil, "\(wrong.prefix(30))")
        }
    }

    @Test("verified against the CA file at the injected time: valid, expired, not yet valid, another CA's")
    func verification() async throws {
        let authority = try TestCertificateAuthority(name: "test CA")
        let stranger = try TestCertificateAuthority(name: "another CA")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-client-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("ca.pem")
        // A bundle of two authorities.
        try Data((stranger.certificatePEM + authority.certificatePEM).utf8).write(to: bundle)
        let onlyOne = directory.appendingPathComponent("one.pem")
        try Data(authority.certificatePEM.utf8).write(to: onlyOne)

        let both = try ClientCertificateAuthorities(file: bundle.path)
        let one = try ClientCertificateAuthorities(file: onlyOne.path)
        #expect(both.trustRoots.count == 2)
        let good = try ClientCertificate(derBytes: try authority.issueClient("ops").certificate.serializeAsPEM().derBytes)
        let expired = try ClientCertificate(derBytes: try authority.issueClient("ops", expired: true).certificate.serializeAsPEM().derBytes)
        let foreign = try ClientCertificate(derBytes: try stranger.issueClient("ops").certificate.serializeAsPEM().derBytes)
        let now = Date()
        #expect(await one.verifies(good, at: now))
        #expect(!(await one.verifies(expired, at: now)))
        // The same certificate at a time within its validity: the clock given decides.
        #expect(await one.verifies(expired, at: now - 1.5 * 86_400))
        #expect(!(await one.verifies(good, at: now - 2 * 86_400)))
        #expect(!(await one.verifies(foreign, at: now)))
        #expect(await both.verifies(foreign, at: now))

        let empty = directory.appendingPathComponent("empty.pem")
        try Data("no certificate here\n".utf8).write(to: empty)
        for path in [empty.path, directory.appendingPathComponent("missing.pem").path] {
            #expect(throws: ConfigurationError.self) { try ClientCertificateAuthorities(file: path) }
        }
    }
}
