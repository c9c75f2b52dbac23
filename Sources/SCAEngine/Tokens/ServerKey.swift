import Crypto
import Foundation
import SCACore

/// The key that seals secrets at rest (TOTP seeds, signing keys) and keys the hashes of
/// one-time codes. Instances sharing a database must share it.
enum ServerKey {
    /// From configuration when given, otherwise from `<data-dir>/server.key`, created on first
    /// start with mode 0600.
    /// - Throws: `ConfigurationError` for a key that is not 32 bytes of base64url.
    static func load(configuration: ServerConfiguration, random: any RandomSource) throws -> SymmetricKey {
        if let text = configuration.serverKey {
            return try parse(text, source: "serverKey")
        }
        let path = configuration.serverKeyPath
        if let data = FileManager.default.contents(atPath: path) {
            return try parse(String(decoding: data, as: UTF8.self), source: path)
        }
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let bytes = random.bytes(32)
        let created = FileManager.default.createFile(
            atPath: path, contents: Data((Base64URL.encode(bytes) + "\n").utf8),
            attributes: [.posixPermissions: 0o600])
        guard created else { throw ConfigurationError("cannot create server key file \(path)") }
        return SymmetricKey(data: bytes)
    }

    private static func parse(_ text: String, source: String) throws -> SymmetricKey {
        guard let bytes = Base64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw ConfigurationError("\(source): the server key must be 32 bytes in base64url")
        }
        return SymmetricKey(data: bytes)
    }
}
