import Foundation
import NIOSSL
import SCAEngine
import SwiftASN1
import X509

/// The server's certificate chain and private key, read from `tls.certificateFile` and
/// `tls.privateKeyFile` and checked to belong together, so that a bad pair fails the start-up
/// (or is refused by a reload) instead of every handshake.
struct ServerCertificate: Sendable {
    /// The two files as they were read, to tell when either changes.
    struct Files: Sendable, Equatable {
        var certificate: Data
        var privateKey: Data
    }

    let files: Files
    /// The server's certificate first, then its intermediates, as the handshake sends them.
    let chain: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey
    /// The first certificate, parsed: its serial number and validity name it in the log.
    let leaf: Certificate

    /// Reads both files.
    /// - Throws: `ConfigurationError` naming the file and what is wrong with it.
    static func read(certificateFile: String, privateKeyFile: String) throws -> Files {
        func contents(_ path: String, of key: String) throws -> Data {
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ConfigurationError("\(key) \(path) cannot be read: \(error.localizedDescription)")
            }
        }
        return Files(
            certificate: try contents(certificateFile, of: "tls.certificateFile"),
            privateKey: try contents(privateKeyFile, of: "tls.privateKeyFile"))
    }

    /// Parses what ``read(certificateFile:privateKeyFile:)`` read.
    /// - Throws: `ConfigurationError`: no PEM certificate, no PEM private key, or a key that is
    ///   not the first certificate's.
    init(_ files: Files) throws {
        self.files = files
        do {
            let documents = try PEMDocument.parseMultiple(pemString: String(decoding: files.certificate, as: UTF8.self))
                .filter { $0.discriminator == "CERTIFICATE" }
            chain = try documents.map { try NIOSSLCertificate(bytes: $0.derBytes, format: .der) }
            guard let first = documents.first else { throw ConfigurationError("tls.certificateFile holds no PEM certificate") }
            leaf = try Certificate(derEncoded: first.derBytes)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("tls.certificateFile is not a PEM certificate chain: \(error)")
        }
        let keyText = String(decoding: files.privateKey, as: UTF8.self)
        let key: Certificate.PrivateKey
        do {
            key = try Certificate.PrivateKey(pemEncoded: keyText)
            privateKey = try NIOSSLPrivateKey(bytes: Array(files.privateKey), format: .pem)
        } catch {
            throw ConfigurationError("tls.privateKeyFile is not a PEM private key (PKCS #8, SEC 1 or PKCS #1): \(error)")
        }
        // Caught here, a mismatch would otherwise fail every handshake with an opaque alert.
        guard key.publicKey == leaf.publicKey else {
            throw ConfigurationError("tls.privateKeyFile is not the key of the first certificate in tls.certificateFile")
        }
    }

    /// The first certificate's serial number in hex, as `openssl x509 -serial` writes it.
    var serialNumber: String {
        leaf.serialNumber.bytes.map { String(format: "%02X", $0) }.joined()
    }
}
