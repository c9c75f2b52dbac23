import Crypto
import Foundation
import SCACore
import Synchronization

/// Device keys as raw P-256 private keys in owner-only files (0600) under an owner-only
/// directory (0700): the store for Linux, tests and tools.
///
/// The binding and its two keys live together in one file, `device.json`, so that an
/// activation replaces them in one atomic rename: a reader (or a crash) sees the old binding
/// with the old keys or the new binding with the new keys, never a mix. Keys made for an
/// activation in progress wait in `pending-<id>.json` until the server has accepted them.
/// (A `device.json` written before keys moved into it still works with its `possession.key`
/// and `biometry.key` files, until the next activation replaces them.)
///
/// Files are no Secure Enclave: anyone who can read them as this user can sign as the device,
/// and the "biometry" key is gated only by the app calling
/// ``FactorCollector/passBiometricGate(reason:)``. On iOS, implement ``DeviceKeyStore`` with
/// Secure Enclave keys instead.
public final class FileDeviceKeyStore: DeviceKeyStore {
    /// The directory holding `device.json` and any pending keys.
    public let directory: URL
    /// Serialises the file operations of this instance, so that a `reset` never interleaves with
    /// a commit half-way (every operation is synchronous inside the lock).
    private let lock = Mutex(())

    /// Pending keys whose files cannot be found: discarded, or made by another store.
    public struct PendingKeysMissing: Error, CustomStringConvertible {
        public var id: String
        public var description: String { "the pending device keys \(id) are gone: start the activation again" }
    }

    /// - Parameter directory: where the files live; created with mode 0700 when missing.
    public init(directory: URL) {
        self.directory = directory
    }

    private var deviceFile: URL { directory.appendingPathComponent("device.json") }

    /// Where keys lived before they moved into `device.json`.
    private func legacyKeyFile(_ kind: DeviceKeyKind) -> URL {
        directory.appendingPathComponent("\(kind.rawValue).key")
    }

    private func pendingFile(_ id: String) throws -> URL {
        // The id names a file: only what this store makes (a UUID) is accepted.
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw PendingKeysMissing(id: id)
        }
        return directory.appendingPathComponent("pending-\(id).json")
    }

    /// Creates two fresh keys in a pending file; `device.json` is not touched.
    /// - Returns: the pending keys' id and public keys, X9.63 uncompressed (65 bytes).
    /// - Throws: an I/O error when the file cannot be written.
    public func createPendingKeys() async throws -> PendingDeviceKeys {
        try lock.withLock { _ in
            try ProtectedFile.ensureDirectory(directory)
            let possession = P256.Signing.PrivateKey()
            let biometry = P256.Signing.PrivateKey()
            let id = UUID().uuidString.lowercased()
            let keys = StoredKeys(possessionKey: possession.rawRepresentation, biometryKey: biometry.rawRepresentation)
            try ProtectedFile.write(try WireJSON.encoder().encode(keys), to: try pendingFile(id))
            return PendingDeviceKeys(
                id: id, possession: Array(possession.publicKey.x963Representation),
                biometry: Array(biometry.publicKey.x963Representation))
        }
    }

    /// - Returns: raw `r||s` ECDSA-SHA256 (64 bytes) by the pending key.
    /// - Throws: ``PendingKeysMissing``; an I/O or CryptoKit error.
    public func signWithPendingKey(_ payload: [UInt8], with key: DeviceKeyKind, of pending: PendingDeviceKeys) async throws -> [UInt8] {
        let privateKey = try lock.withLock { _ -> P256.Signing.PrivateKey in
            guard let data = try ProtectedFile.read(try pendingFile(pending.id)) else { throw PendingKeysMissing(id: pending.id) }
            let keys = try WireJSON.decoder().decode(StoredKeys.self, from: data)
            guard let raw = keys.raw(key) else { throw PendingKeysMissing(id: pending.id) }
            return try P256.Signing.PrivateKey(rawRepresentation: raw)
        }
        return Array(try privateKey.signature(for: payload).rawRepresentation)
    }

    /// Writes `device.json` with the binding and the pending keys (one rename replaces the old
    /// binding and keys together), then deletes the pending file and any older key files.
    /// - Throws: ``PendingKeysMissing``; an I/O error (the old `device.json` then stays).
    public func commitPendingKeys(_ pending: PendingDeviceKeys, binding: DeviceBinding) async throws {
        try lock.withLock { _ in
            let file = try pendingFile(pending.id)
            guard let data = try ProtectedFile.read(file) else { throw PendingKeysMissing(id: pending.id) }
            let keys = try WireJSON.decoder().decode(StoredKeys.self, from: data)
            let stored = StoredDevice(binding: binding, keys: keys)
            try ProtectedFile.write(try WireJSON.encoder().encode(stored), to: deviceFile)
            // The new binding is in place; what follows only tidies up.
            try ProtectedFile.remove(file)
            try ProtectedFile.remove(legacyKeyFile(.possession))
            try ProtectedFile.remove(legacyKeyFile(.biometry))
        }
    }

    /// Deletes the pending file; `device.json` is not touched.
    /// - Throws: an I/O error when it cannot be deleted.
    public func discardPendingKeys(_ pending: PendingDeviceKeys) async throws {
        try lock.withLock { _ in try ProtectedFile.remove(try pendingFile(pending.id)) }
    }

    /// - Parameters:
    ///   - payload: the bytes to sign.
    ///   - key: which key signs.
    /// - Returns: raw `r||s` ECDSA-SHA256 (64 bytes).
    /// - Throws: ``SCAClientError/deviceNotActivated`` when the key does not exist; an I/O or
    ///   CryptoKit error when its file cannot be read or holds no P-256 key.
    public func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8] {
        let privateKey = try lock.withLock { _ -> P256.Signing.PrivateKey in
            var raw: Data?
            if let data = try ProtectedFile.read(deviceFile) {
                raw = try WireJSON.decoder().decode(StoredKeys.self, from: data).raw(key)
            }
            if raw == nil { raw = try ProtectedFile.read(legacyKeyFile(key)) }
            guard let raw else { throw SCAClientError.deviceNotActivated }
            return try P256.Signing.PrivateKey(rawRepresentation: raw)
        }
        return Array(try privateKey.signature(for: payload).rawRepresentation)
    }

    /// - Returns: the saved binding, or nil.
    /// - Throws: an I/O or decoding error when `device.json` is unreadable.
    public func binding() async throws -> DeviceBinding? {
        try lock.withLock { _ in
            guard let data = try ProtectedFile.read(deviceFile) else { return nil }
            return try WireJSON.decoder().decode(DeviceBinding.self, from: data)
        }
    }

    /// Deletes the binding, its keys and any pending keys.
    /// - Throws: an I/O error when a file cannot be deleted.
    public func reset() async throws {
        try lock.withLock { _ in
            try ProtectedFile.remove(deviceFile)
            try ProtectedFile.remove(legacyKeyFile(.possession))
            try ProtectedFile.remove(legacyKeyFile(.biometry))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names where name.hasPrefix("pending-") && name.hasSuffix(".json") {
                try ProtectedFile.remove(directory.appendingPathComponent(name))
            }
        }
    }
}

/// The two private keys, raw (32 bytes each), base64 in JSON.
private struct StoredKeys: Codable {
    var possessionKey: Data?
    var biometryKey: Data?

    func raw(_ kind: DeviceKeyKind) -> Data? {
        kind == .possession ? possessionKey : biometryKey
    }
}

/// `device.json`: the binding's fields and, next to them, its keys, so that one rename
/// replaces both. ``DeviceBinding`` decodes from the same bytes (it ignores the keys).
private struct StoredDevice: Codable {
    var deviceId: String
    var userId: String
    var server: URL
    var name: String
    var hasBiometryKey: Bool
    var possessionKey: Data?
    var biometryKey: Data?

    init(binding: DeviceBinding, keys: StoredKeys) {
        deviceId = binding.deviceId
        userId = binding.userId
        server = binding.server
        name = binding.name
        hasBiometryKey = binding.hasBiometryKey
        possessionKey = keys.possessionKey
        biometryKey = keys.biometryKey
    }
}
