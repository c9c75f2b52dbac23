import Crypto
import Foundation
import SCAClient

/// A device's two P-256 keys and its binding, in memory. An app keeps them in a Secure Enclave
/// or files; the harness keeps them here so a flow's client cost is the signing, not file I/O.
actor InMemoryDeviceKeyStore: DeviceKeyStore {
    private struct Keys {
        var possession: P256.Signing.PrivateKey
        var biometry: P256.Signing.PrivateKey

        func signer(_ kind: DeviceKeyKind) -> P256.Signing.PrivateKey { kind == .possession ? possession : biometry }
    }

    private var current: Keys?
    private var pending: [String: Keys] = [:]
    private var stored: DeviceBinding?

    func createPendingKeys() async throws -> PendingDeviceKeys {
        let keys = Keys(possession: P256.Signing.PrivateKey(), biometry: P256.Signing.PrivateKey())
        let id = UUID().uuidString
        pending[id] = keys
        return PendingDeviceKeys(
            id: id, possession: Array(keys.possession.publicKey.x963Representation),
            biometry: Array(keys.biometry.publicKey.x963Representation))
    }

    func signWithPendingKey(_ payload: [UInt8], with key: DeviceKeyKind, of keys: PendingDeviceKeys) async throws -> [UInt8] {
        guard let signer = pending[keys.id]?.signer(key) else { throw BenchError("pending keys \(keys.id) are gone") }
        return Array(try signer.signature(for: payload).rawRepresentation)
    }

    func commitPendingKeys(_ keys: PendingDeviceKeys, binding: DeviceBinding) async throws {
        guard let made = pending.removeValue(forKey: keys.id) else { throw BenchError("pending keys \(keys.id) are gone") }
        current = made
        stored = binding
    }

    func discardPendingKeys(_ keys: PendingDeviceKeys) async throws { pending[keys.id] = nil }

    func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8] {
        guard let signer = current?.signer(key) else {
            throw BenchError("no \(key.rawValue) key: the device was not activated")
        }
        return Array(try signer.signature(for: payload).rawRepresentation)
    }

    func binding() async throws -> DeviceBinding? { stored }

    func reset() async throws {
        current = nil
        pending = [:]
        stored = nil
    }
}
