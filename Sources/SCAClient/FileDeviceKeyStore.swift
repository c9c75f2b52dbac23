import Crypto
import Foundation
import SCACore
import Synchronization

/// Device keys as raw P-256 private keys in owner-only files (0600) under an owner-only
/// directory (0700), and the binding as `device.json`: the store for Linux, tests and tools.
///
/// Files are no Secure Enclave: anyone who can read them as this user can sign as the device,
/// and the "biometry" key is gated only by the app calling
/// ``FactorCollector/passBiometricGate(reason:)``. On iOS, implement ``DeviceKeyStore`` with
/// Secure Enclave keys instead.
public final class FileDeviceKeyStore: DeviceKeyStore {
    /// The directory holding `possession.key`, `biometry.key` and `device.json`.
    public let directory: URL
    /// Serialises the file operations of this instance, so that a `reset` never interleaves with
    /// a `createKeys` half-way (every operation is synchronous inside the lock).
    private let lock = Mutex(())

    /// - Parameter directory: where the files live; created with mode 0700 when missing.
    public init(directory: URL) {
        self.directory = directory
    }

    private var bindingFile: URL { directory.appendingPathComponent("device.json") }

    private func keyFile(_ kind: DeviceKeyKind) -> URL {
        directory.appendingPathComponent("\(kind.rawValue).key")
    }

    /// Creates two fresh keys, replacing any, and forgets the old binding with the old keys.
    /// - Returns: both public keys, X9.63 uncompressed (65 bytes).
    /// - Throws: an I/O error when a file cannot be written.
    public func createKeys() async throws -> (possession: [UInt8], biometry: [UInt8]?) {
        try lock.withLock { _ in
            try ProtectedFile.ensureDirectory(directory)
            try ProtectedFile.remove(bindingFile)
            let possession = P256.Signing.PrivateKey()
            let biometry = P256.Signing.PrivateKey()
            try ProtectedFile.write(possession.rawRepresentation, to: keyFile(.possession))
            try ProtectedFile.write(biometry.rawRepresentation, to: keyFile(.biometry))
            return (Array(possession.publicKey.x963Representation), Array(biometry.publicKey.x963Representation))
        }
    }

    /// - Parameters:
    ///   - payload: the bytes to sign.
    ///   - key: which key signs.
    /// - Returns: raw `r||s` ECDSA-SHA256 (64 bytes).
    /// - Throws: ``SCAClientError/deviceNotActivated`` when the key does not exist; an I/O or
    ///   CryptoKit error when its file cannot be read or holds no P-256 key.
    public func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8] {
        let privateKey = try lock.withLock { _ -> P256.Signing.PrivateKey in
            guard let raw = try ProtectedFile.read(keyFile(key)) else { throw SCAClientError.deviceNotActivated }
            return try P256.Signing.PrivateKey(rawRepresentation: raw)
        }
        return Array(try privateKey.signature(for: payload).rawRepresentation)
    }

    /// - Returns: the saved binding, or nil.
    /// - Throws: an I/O or decoding error when `device.json` is unreadable.
    public func binding() async throws -> DeviceBinding? {
        try lock.withLock { _ in
            guard let data = try ProtectedFile.read(bindingFile) else { return nil }
            return try WireJSON.decoder().decode(DeviceBinding.self, from: data)
        }
    }

    /// - Parameter binding: written to `device.json`, mode 0600.
    /// - Throws: an I/O error when it cannot be written.
    public func saveBinding(_ binding: DeviceBinding) async throws {
        let data = try WireJSON.encoder().encode(binding)
        try lock.withLock { _ in try ProtectedFile.write(data, to: bindingFile) }
    }

    /// Deletes both keys and the binding.
    /// - Throws: an I/O error when a file cannot be deleted.
    public func reset() async throws {
        try lock.withLock { _ in
            try ProtectedFile.remove(keyFile(.possession))
            try ProtectedFile.remove(keyFile(.biometry))
            try ProtectedFile.remove(bindingFile)
        }
    }
}
