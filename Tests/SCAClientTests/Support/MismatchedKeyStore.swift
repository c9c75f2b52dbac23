import Crypto
import SCAClient

/// A key store whose possession key signs with a key the server never saw: a device whose key
/// was replaced behind the server's back.
struct MismatchedKeyStore: DeviceKeyStore {
    let base: FileDeviceKeyStore
    let stranger = P256.Signing.PrivateKey()

    // The activation proof (by the pending key) must still pass, so only challenge signatures go wrong.
    func createPendingKeys() async throws -> PendingDeviceKeys { try await base.createPendingKeys() }
    func signWithPendingKey(_ payload: [UInt8], with key: DeviceKeyKind, of pending: PendingDeviceKeys) async throws -> [UInt8] {
        try await base.signWithPendingKey(payload, with: key, of: pending)
    }
    func commitPendingKeys(_ pending: PendingDeviceKeys, binding: DeviceBinding) async throws {
        try await base.commitPendingKeys(pending, binding: binding)
    }
    func discardPendingKeys(_ pending: PendingDeviceKeys) async throws { try await base.discardPendingKeys(pending) }

    func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8] {
        guard key == .possession else { return try await base.sign(payload, with: key) }
        return Array(try stranger.signature(for: payload).rawRepresentation)
    }

    func binding() async throws -> DeviceBinding? { try await base.binding() }
    func reset() async throws { try await base.reset() }
}
